/**
 * The run option `onEvent`: a run reports every event `stream()` yields — text and
 * reasoning deltas included, so the model is asked in streaming mode — to a callback,
 * whichever method runs it (`generate`, `resume`, `step`, `stream`).
 */
import type { AgentEvent, AgentRunOptions, RunResult, StepOutcome } from './types.ts';

/** Where a run's events go, and whether its model turns are streamed to make them. */
export interface EventSink {
  streaming: boolean;
  emit(event: AgentEvent): void;
}

/**
 * `sink` with the run option `onEvent` added: every event reaches both, and the model
 * streams so that deltas exist. `sink` itself without the option.
 */
export function withOnEvent(sink: EventSink, options: AgentRunOptions): EventSink {
  const { onEvent } = options;
  if (onEvent === undefined) return sink;
  return {
    streaming: true,
    emit(event) {
      sink.emit(event);
      onEvent.call(options, event);
    },
  };
}

/** The `finish` event of a run that ended (done or suspended); none for a step that left it running. */
export function finishEvent(outcome: StepOutcome): AgentEvent | undefined {
  return outcome.status === 'running'
    ? undefined
    : { type: 'finish', result: outcome as RunResult };
}
