/**
 * The options of `workflowUIChunks` (decision 252), checked when it is called: a wrong one
 * is refused at once with `INVALID_ARGUMENT` naming it and what was expected.
 */
import { describeValue } from '../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import { WorkflowError } from '../../workflow/index.ts';

/** What a page shows of a workflow run, and how it follows it. */
export interface WorkflowUIOptions {
  /**
   * The run's streams (`ctx.writeStream`) to show, by name, each chunk as a
   * `data-fino-workflow-stream` part (default none: a page sees only the streams the
   * server names). At most {@link MAX_WORKFLOW_UI_STREAMS}.
   */
  streams?: readonly string[];
  /** A stream whose string chunks are the message's text (its other chunks stay data parts). */
  textStream?: string;
  /** Aborting it ends the reading: the iteration throws an `AbortError` (the signal's reason when it is one). */
  signal?: AbortSignal;
  /**
   * How often the run is read again while it goes on, in ms (default
   * {@link DEFAULT_WORKFLOW_POLL_MS}, from {@link MIN_WORKFLOW_POLL_MS} to
   * {@link MAX_WORKFLOW_POLL_MS}). Streams are followed as `readStream` does.
   */
  pollMs?: number;
}

/** How often a followed run is read again, by default, in ms. */
export const DEFAULT_WORKFLOW_POLL_MS = 500;
/** The shortest `pollMs`: below it, a page would keep the store busy. */
export const MIN_WORKFLOW_POLL_MS = 10;
/** The longest `pollMs` (one minute). */
export const MAX_WORKFLOW_POLL_MS = 60_000;
/** The most streams one page may follow (a run writes at most 100). */
export const MAX_WORKFLOW_UI_STREAMS = 100;

/** The options, checked, with their defaults. */
export interface WorkflowUISettings {
  /** Every stream to read, the text stream among them, each once. */
  streams: string[];
  textStream: string | undefined;
  signal: AbortSignal | undefined;
  pollMs: number;
}

const KNOWN = ['streams', 'textStream', 'signal', 'pollMs'];

const refuse = (what: string, expected: string, value: unknown): never => {
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `workflowUIChunks: ${what}: expected ${expected}, received ${describeValue(value)}`,
  );
};

/** The checked settings of `options`; `INVALID_ARGUMENT` for a wrong one. */
export function readWorkflowUIOptions(options: unknown): WorkflowUISettings {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    refuse('options', 'an object', options);
  }
  const unknown = unknownKeyMessage('workflowUIChunks', options as object, KNOWN);
  if (unknown !== undefined) throw new WorkflowError('INVALID_ARGUMENT', unknown);
  const { streams = [], textStream, signal, pollMs } = options as WorkflowUIOptions;
  if (!Array.isArray(streams) || streams.length > MAX_WORKFLOW_UI_STREAMS) {
    refuse('streams', `an array of at most ${MAX_WORKFLOW_UI_STREAMS} stream names`, streams);
  }
  for (let i = 0; i < streams.length; i++) {
    const name = streams[i];
    if (typeof name !== 'string' || name === '') refuse(`streams[${i}]`, 'a stream name', name);
  }
  if (textStream !== undefined && (typeof textStream !== 'string' || textStream === '')) {
    refuse('textStream', 'a stream name', textStream);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    refuse('signal', 'an AbortSignal', signal);
  }
  const poll = pollMs ?? DEFAULT_WORKFLOW_POLL_MS;
  if (typeof poll !== 'number' || !(poll >= MIN_WORKFLOW_POLL_MS && poll <= MAX_WORKFLOW_POLL_MS)) {
    refuse(
      'pollMs',
      `a number of ms from ${MIN_WORKFLOW_POLL_MS} to ${MAX_WORKFLOW_POLL_MS}`,
      poll,
    );
  }
  const all = [...new Set([...streams, ...(textStream === undefined ? [] : [textStream])])];
  return { streams: all, textStream, signal, pollMs: poll };
}
