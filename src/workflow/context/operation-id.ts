/** The ids of workflow operations: the rule for ids callers give, and the prefix of made-up ones. */
import { WorkflowError } from '../errors.ts';

const MAX_ID_LENGTH = 200;
/** Ids fino makes up for `now`, `random`, `uuid`, `version` start with "$"; step ids may not. */
export const AUTO = '$';

/** Checks an operation id: a non-empty string of at most 200 characters, not starting with "$". */
export function checkId(id: unknown, where: string): asserts id is string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH || id.startsWith(AUTO)) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where}(id): expected a non-empty id of at most ${MAX_ID_LENGTH} characters, not starting with "${AUTO}", received ${typeof id === 'string' ? JSON.stringify(id.slice(0, 60)) : typeof id}`,
    );
  }
}
