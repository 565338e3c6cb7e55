/**
 * `completion/complete`: suggestions for a prompt argument or a template variable, from
 * the `complete` functions given to `prompt()` and `resourceTemplate()`. Decision 121.
 */
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import type { CompleteFn } from './resources.ts';

/** MCP caps one answer at 100 values. */
export const MAX_COMPLETIONS = 100;

/** The completer for a request's reference and argument, if any. */
export type FindCompleter = (
  ref: CompleteRequest['params']['ref'],
  argument: string,
) => CompleteFn | undefined;

/** Answers one `completion/complete`; a reference without a completer suggests nothing. */
export async function complete(
  params: CompleteRequest['params'],
  find: FindCompleter,
): Promise<CompleteResult> {
  const completer = find(params.ref, params.argument.name);
  if (completer === undefined) return { completion: { values: [] } };
  const context = { arguments: { ...(params.context?.arguments ?? {}) } };
  const values = await completer(params.argument.value, context);
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    throw new Error(
      `complete "${params.argument.name}": expected an array of strings, received ${describeValue(values)}`,
    );
  }
  const completion: CompleteResult['completion'] = {
    values: values.slice(0, MAX_COMPLETIONS),
    total: values.length,
  };
  if (values.length > MAX_COMPLETIONS) completion.hasMore = true;
  return { completion };
}
