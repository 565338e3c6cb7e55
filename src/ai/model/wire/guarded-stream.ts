import { abortError } from '../../../internal/abort-error.ts';
import type { StreamEvent } from '../core/index.ts';

/**
 * Runs a provider's event producer so the stream never throws: any failure, abort
 * included, ends it with one `error` event.
 */
export async function* guardedStream(
  signal: AbortSignal | undefined,
  produce: () => AsyncGenerator<StreamEvent>,
): AsyncGenerator<StreamEvent> {
  try {
    yield* produce();
  } catch (error) {
    const failure =
      signal?.aborted === true
        ? abortError(signal)
        : error instanceof Error
          ? error
          : new Error(String(error));
    yield { type: 'error', error: failure };
  }
}
