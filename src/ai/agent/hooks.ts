import { checkOptionalType } from '../../internal/option-type.ts';
import { AgentError } from './agent-error.ts';
import type { AgentEvent } from './types.ts';

type EventOf<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/**
 * Lifecycle callbacks of one run, for `generate()`, `stream()`, `step()` and `resume()`
 * alike; each gets the same event a stream yields. They are called synchronously, in
 * order, as the run goes; a callback that throws (or returns a promise that rejects)
 * fails the run with that error. They are observers: the run goes on without waiting
 * for a returned promise (persist with `onCheckpoint`, which is awaited), but its
 * result waits until every such promise has settled.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const bot = agent({ model: scriptedModel(['Hello!']) });
 * await bot.generate('Hi', {
 *   onStepStart: ({ step }) => console.log('step', step),
 *   onStepFinish: ({ result }) => console.log(result.text, result.usage.totalTokens),
 * });
 * ```
 */
export interface RunHooks {
  /** Before each model request. */
  onStepStart?(event: EventOf<'step-start'>): void | Promise<void>;
  /** After a step's tool calls are all settled (or after a turn without tool calls). */
  onStepFinish?(event: EventOf<'step-finish'>): void | Promise<void>;
  /** For each tool call the model makes, before any of the turn's calls runs. */
  onToolCall?(event: EventOf<'tool-call'>): void | Promise<void>;
  /** For each tool result, as it completes. */
  onToolResult?(event: EventOf<'tool-result'>): void | Promise<void>;
  /** For each `ctx.progress()` update of a running tool (decision 094). */
  onProgress?(event: EventOf<'progress'>): void | Promise<void>;
}

const HOOKS = {
  'step-start': 'onStepStart',
  'step-finish': 'onStepFinish',
  'tool-call': 'onToolCall',
  'tool-result': 'onToolResult',
  progress: 'onProgress',
} as const satisfies Partial<Record<AgentEvent['type'], keyof RunHooks>>;

/** Checks that every hook given is a function. */
export function checkHooks(options: RunHooks): void {
  for (const name of Object.values(HOOKS)) {
    checkOptionalType(
      options[name],
      'function',
      `run options.${name}`,
      (message) => new AgentError('INVALID_ARGUMENT', message),
    );
  }
}

/** An `emit` that also calls the hooks, and a way to wait for the promises they returned. */
export interface HookedEmit {
  emit(event: AgentEvent): void;
  /** Settles when every promise a hook returned has settled; rejects with the first rejection. */
  settled(): Promise<void>;
}

/**
 * Wraps `emit` so that each event also reaches its hook. A hook's synchronous throw
 * propagates from `emit`; the first rejected promise goes to `fail` at once (so the run
 * stops) and is what `settled()` rejects with, so a rejection near the end of a run is
 * not lost.
 */
export function withHooks(
  emit: (event: AgentEvent) => void,
  hooks: RunHooks,
  fail: (error: unknown) => void,
): HookedEmit {
  const returned: Promise<unknown>[] = [];
  return {
    emit(event) {
      emit(event);
      const name = (HOOKS as Partial<Record<AgentEvent['type'], keyof RunHooks>>)[event.type];
      const hook = name && (hooks[name] as ((e: AgentEvent) => unknown) | undefined);
      if (!hook) return;
      const value = hook.call(hooks, event);
      if (value !== null && typeof (value as Promise<void>)?.then === 'function') {
        const promise = Promise.resolve(value);
        promise.then(undefined, fail);
        returned.push(promise);
      }
    },
    async settled() {
      await Promise.all(returned);
    },
  };
}
