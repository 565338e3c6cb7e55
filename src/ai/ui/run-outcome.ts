/**
 * How a run's end reads in a UI message stream: its finish reason, the error chunks of a
 * failure (fino's code first, as a data part), and JSON copies of what events carry.
 */

import { controlFlowName, errorMessage } from '../../internal/thrown-value.ts';
import type { StopReason } from '../model/index.ts';
import type { UIFinishReason, UIJsonObject, UIJsonValue, UIMessageChunk } from './types.ts';

const FINISH_REASONS: Record<StopReason, UIFinishReason> = {
  end: 'stop',
  tool_calls: 'tool-calls',
  max_tokens: 'length',
  content_filter: 'content-filter',
  other: 'other',
};

/**
 * The protocol's finish reason for a run that ended with `status` after a step that
 * stopped for `lastStop`: a suspended run waits on tool calls.
 */
export function finishReasonOf(status: string, lastStop: StopReason | undefined): UIFinishReason {
  if (status === 'suspended') return 'tool-calls';
  return lastStop ? (FINISH_REASONS[lastStop] ?? 'other') : 'stop';
}

/** fino's code of a thrown value: its string `code`, else `INTERNAL`. Never throws. */
export function errorCodeOf(error: unknown): string {
  try {
    const code: unknown = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code !== '' ? code : 'INTERNAL';
  } catch {
    return 'INTERNAL';
  }
}

/**
 * The chunks of a failed run: an abort is the protocol's `abort`; any other failure is a
 * `data-fino-error` part with fino's code, then the protocol's `error` chunk.
 */
export function failureChunks(error: unknown): UIMessageChunk[] {
  const message = errorMessage(error);
  if (controlFlowName(error) === 'AbortError') return [{ type: 'abort', reason: message }];
  const code = errorCodeOf(error);
  return [
    { type: 'data-fino-error', data: { code, message } },
    { type: 'error', errorText: `${code}: ${message}` },
  ];
}

/** A JSON copy of `value` (what `JSON.stringify` keeps; `null` for what it cannot write). */
export function jsonValue(value: unknown): UIJsonValue {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as UIJsonValue);
  } catch {
    return null;
  }
}

/** A JSON copy of an object (an empty object for anything else). */
export function jsonObject(value: unknown): UIJsonObject {
  const copy = jsonValue(value);
  return copy !== null && typeof copy === 'object' && !Array.isArray(copy)
    ? (copy as UIJsonObject)
    : {};
}
