/**
 * The context object an executor receives.
 */
import {
  checkedLog,
  type ElicitAnswer,
  type ElicitRequest,
  type ListRootsRequest,
  type LogFn,
  noElicitation,
  noRoots,
  noSampling,
  type Root,
  type SampleRequest,
  type SampleResult,
} from './client-requests.ts';
import type { ModelMessage } from './content.ts';
import { progressReporter } from './progress.ts';
import { SuspendSignal, suspendArguments } from './suspend-signal.ts';
import type { Progress, SuspendFn, TaskRunContext, TaskRunOptions, Writer } from './types.ts';
import { TextBuffer } from './writers.ts';

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

/** A field built only when the executor first reads it. */
const LAZY: unique symbol = Symbol('lazy');

/**
 * A `TaskRunContext` built from the caller's options, with the fallbacks used outside an
 * agent. What an executor may never read is built only when it does: `messages` (a fresh
 * array when the caller gave none), `writer` (a fresh `TextBuffer` when the caller gave
 * none; `written` is its text), `env` and `cwd` (read from the process). `messages` and
 * `writer` can still be assigned. Decision 087.
 */
export class RunContextFromOptions implements TaskRunContext {
  signal: AbortSignal;
  toolCallId: string;
  step: number;
  runId: string;
  suspend: SuspendFn;
  resumeValue: unknown;
  idempotencyKey: string | undefined;
  progress: (update: Progress) => void;
  log: LogFn;
  sample: (request: SampleRequest) => Promise<SampleResult>;
  elicit: (request: ElicitRequest) => Promise<ElicitAnswer>;
  listRoots: (request?: ListRootsRequest) => Promise<Root[]>;
  readonly #options: TaskRunOptions;
  #messages: ModelMessage[] | typeof LAZY;
  #writer: Writer | typeof LAZY;
  #buffer: TextBuffer | undefined;

  /** `writer` `undefined`: the executor writes to a `TextBuffer`, made when it first asks. */
  constructor(options: TaskRunOptions, signal: AbortSignal, writer: Writer | undefined) {
    this.signal = signal;
    this.toolCallId = options.toolCallId ?? 'task';
    this.step = options.step ?? 0;
    this.runId = options.runId ?? 'task';
    this.suspend = options.suspend ? positional(options.suspend) : throwSuspendSignal;
    this.resumeValue = options.resumeValue;
    this.idempotencyKey = options.idempotencyKey;
    this.progress =
      options.progress === undefined ? checkOnlyProgress : progressReporter(options.progress);
    this.log = checkedLog(options.log);
    this.sample = options.sample ?? noSampling;
    this.elicit = options.elicit ?? noElicitation;
    this.listRoots = options.listRoots ?? noRoots;
    this.#options = options;
    this.#messages = options.messages ?? LAZY;
    this.#writer = writer ?? LAZY;
    this.#buffer = undefined;
  }

  /** The conversation so far: the caller's, or a fresh empty array. */
  get messages(): ModelMessage[] {
    if (this.#messages === LAZY) this.#messages = [];
    return this.#messages;
  }

  set messages(value: ModelMessage[]) {
    this.#messages = value;
  }

  /** Where output goes: the caller's writer, or a fresh `TextBuffer`. */
  get writer(): Writer {
    if (this.#writer === LAZY) this.#writer = this.#buffer = new TextBuffer();
    return this.#writer;
  }

  set writer(value: Writer) {
    this.#writer = value;
  }

  /** What was written to the `TextBuffer` made for a call without a writer (`''` if none was). */
  get written(): string {
    return this.#buffer === undefined ? '' : this.#buffer.text;
  }

  /** The caller's environment, or `process.env`. */
  get env(): Record<string, string | undefined> {
    return this.#options.env ?? process.env;
  }

  /** The caller's directory, or `process.cwd()`. */
  get cwd(): string {
    return this.#options.cwd ?? process.cwd();
  }
}
