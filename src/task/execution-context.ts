/**
 * The context object an executor receives.
 */
import type { ModelMessage } from './content.ts';
import { progressReporter } from './progress.ts';
import { SuspendSignal, suspendArguments } from './suspend-signal.ts';
import type { Progress, SuspendFn, TaskRunContext, TaskRunOptions, Writer } from './types.ts';

/** The default `suspend`: throws a `SuspendSignal` for the harness to catch. */
const throwSuspendSignal: SuspendFn = (reasonOrRequest, payload) => {
  throw new SuspendSignal(reasonOrRequest, payload);
};

/** `ctx.progress` when the caller listens to none: updates are checked, then dropped. */
const checkOnlyProgress = progressReporter(undefined);

/**
 * The caller's `suspend`, accepting both forms and always calling it positionally,
 * `(reason, payload)`: a harness written for the positional form never sees an object.
 */
function positional(suspend: TaskRunOptions['suspend'] & {}): SuspendFn {
  return (reasonOrRequest, payload) => suspend(...suspendArguments(reasonOrRequest, payload));
}

/**
 * A `TaskRunContext` built from the caller's options, with the fallbacks used outside an
 * agent. `env` and `cwd` are read from the process only when the executor asks (reading
 * them costs more than the rest of the context together).
 */
export class RunContextFromOptions implements TaskRunContext {
  signal: AbortSignal;
  toolCallId: string;
  step: number;
  runId: string;
  messages: ModelMessage[];
  suspend: SuspendFn;
  resumeValue: unknown;
  idempotencyKey: string | undefined;
  progress: (update: Progress) => void;
  writer: Writer;
  readonly #env: Record<string, string | undefined> | undefined;
  readonly #cwd: string | undefined;

  constructor(options: TaskRunOptions, signal: AbortSignal, writer: Writer) {
    this.signal = signal;
    this.toolCallId = options.toolCallId ?? 'task';
    this.step = options.step ?? 0;
    this.runId = options.runId ?? 'task';
    this.messages = options.messages ?? [];
    this.suspend = options.suspend ? positional(options.suspend) : throwSuspendSignal;
    this.resumeValue = options.resumeValue;
    this.idempotencyKey = options.idempotencyKey;
    this.progress =
      options.progress === undefined ? checkOnlyProgress : progressReporter(options.progress);
    this.writer = writer;
    this.#env = options.env;
    this.#cwd = options.cwd;
  }

  /** The caller's environment, or `process.env`. */
  get env(): Record<string, string | undefined> {
    return this.#env ?? process.env;
  }

  /** The caller's directory, or `process.cwd()`. */
  get cwd(): string {
    return this.#cwd ?? process.cwd();
  }
}
