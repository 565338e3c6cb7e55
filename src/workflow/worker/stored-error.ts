/** An error as a workflow store keeps it, read from whatever the code threw. */
import { errorMessage } from '../../internal/thrown-value.ts';
import { boundedMessage } from '../errors.ts';
import type { StoredError } from '../types.ts';

/** An error as the store keeps it, read safely from any thrown value. */
export function storedError(error: unknown): StoredError {
  let name = 'Error';
  let code: string | undefined;
  try {
    const read = (error as { name?: unknown; code?: unknown } | null) ?? {};
    if (typeof read.name === 'string' && read.name !== '') name = read.name.slice(0, 200);
    if (typeof read.code === 'string') code = read.code.slice(0, 200);
  } catch {
    // A hostile value: its type is all that is read.
  }
  const message = errorMessage(error);
  return {
    name,
    message: boundedMessage(message),
    ...(code === undefined ? {} : { code }),
  };
}
