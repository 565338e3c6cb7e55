import type { InferSchema, SchemaLike } from '../../validate/index.ts';
import type { Model } from '../model/index.ts';
import type { Tool } from '../tool/index.ts';
import { type AgentToolOptions, agentTool } from './agent-tool.ts';
import { applyDecisions, decidedResultEvents } from './decisions.ts';
import { EventQueue } from './event-queue.ts';
import { registerAgent } from './handoff-graph.ts';
import { type AgentConfig, type AgentOptions, readOptions } from './options.ts';
import { continueRun, type Run, withRun } from './run.ts';
import { initialState, readState } from './state.ts';
import type {
  AgentEvent,
  AgentInput,
  AgentRunOptions,
  Decisions,
  RunResult,
  RunState,
  StepOutcome,
} from './types.ts';

/** A streamed run: iterate its events; `result` settles when the run ends. */
export interface AgentStream<Output = unknown> extends AsyncIterable<AgentEvent> {
  /** The run's result; rejects (like the iteration) when the run fails. */
  readonly result: Promise<RunResult<Output>>;
}

/** The type of `result.output` for an `output` schema: `undefined` without one. */
export type OutputOf<S> = [S] extends [undefined] ? undefined : InferSchema<Exclude<S, undefined>>;

const quiet = { streaming: false, emit() {} };

/**
 * A model with instructions and tools, run in a loop: the model answers, its tool calls
 * run (approved, suspended or answered with errors as needed), their results go back to
 * it, until it answers without tools, a stop condition holds, or calls wait for a
 * decision. Create one with {@link agent}.
 */
export class Agent<Output = unknown> {
  readonly name: string;
  readonly #config: AgentConfig;

  /**
   * The agent's model (read-only): `fino:ai/session` sizes what a thread loads by its
   * `limits`, and makes the stored token estimates for it.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * console.log(agent({ model: scriptedModel(['Hi']) }).model.id); // scripted
   * ```
   */
  get model(): Model {
    return this.#config.model;
  }

  /**
   * The most tokens one request may hold, from the `context` option (its `maxTokens`,
   * checked, defaulted from the model's limits); `undefined` for an agent without one.
   * `fino:ai/session` loads this much of a thread's newest messages.
   *
   * @example
   * ```ts
   * import { agent, trimOldest } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({
   *   model: scriptedModel(['Hi']),
   *   context: { maxTokens: 4000, strategy: trimOldest({ keep: 2 }) },
   * });
   * console.log(bot.contextTokens); // 4000
   * ```
   */
  get contextTokens(): number | undefined {
    return this.#config.context?.maxTokens;
  }

  constructor(options: AgentOptions) {
    this.#config = readOptions(options);
    this.name = this.#config.name;
    registerAgent(this, this.#config);
  }

  /**
   * Runs the agent on `input` until it is done or suspended.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({ model: scriptedModel(['Hello!']) });
   * const result = await bot.generate('Hi');
   * if (result.status === 'done') console.log(result.text); // 'Hello!'
   * ```
   */
  generate(input: AgentInput, options: AgentRunOptions = {}): Promise<RunResult<Output>> {
    return withRun(this.#config, options, quiet, (run) =>
      continueRun(
        initialState(input, options.runId, options.history, options.agent),
        run,
        'until-paused',
      ),
    ) as Promise<RunResult<Output>>;
  }

  /**
   * Runs the agent on `input` with streamed model turns: iterate the returned object for
   * events (text deltas, tool calls, results, pending calls, step boundaries) and await
   * its `result`. The run goes on whether or not anyone iterates.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const run = agent({ model: scriptedModel(['Hello!']) }).stream('Hi');
   * for await (const event of run) {
   *   if (event.type === 'text-delta') process.stdout.write(event.text);
   * }
   * console.log((await run.result).status); // 'done'
   * ```
   */
  stream(input: AgentInput, options: AgentRunOptions = {}): AgentStream<Output> {
    const events = new EventQueue<AgentEvent>();
    const result = (async () => {
      const state = initialState(input, options.runId, options.history, options.agent);
      return withRun(
        this.#config,
        options,
        { streaming: true, emit: (e) => events.push(e) },
        (run) => continueRun(state, run, 'until-paused'),
      ) as Promise<RunResult<Output>>;
    })();
    result.then(
      () => events.close(), // after the run's `finish` event
      (error: unknown) => events.fail(error),
    );
    return {
      result,
      [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
    };
  }

  /**
   * Takes one step from `state` (or starts a run from an input): settles the open
   * turn's tool calls, or asks the model for a turn and settles its calls. Returns
   * `{ status: 'running', state }` when more steps are due, else the run's result.
   * Decisions for pending calls go through {@link Agent.resume}.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({ model: scriptedModel(['Hello!']) });
   * const outcome = await bot.step('Hi');
   * console.log(outcome.status); // 'done'
   * ```
   */
  step(state: RunState | AgentInput, options: AgentRunOptions = {}): Promise<StepOutcome<Output>> {
    return withRun(this.#config, options, quiet, (run) => {
      const start =
        typeof state === 'string' || Array.isArray(state)
          ? initialState(state, options.runId, options.history, options.agent)
          : readState(state, this.#config.stateSecret);
      return continueRun(start, run, 'one-step');
    }) as Promise<StepOutcome<Output>>;
  }

  /**
   * Continues a run from any state it produced — a suspended result's state, or a
   * checkpoint taken mid-step — applying `decisions` to its pending calls: an approved
   * call runs exactly once, a rejected one answers the model with an `isError` result
   * carrying the reason, a resumed suspension runs the tool again with the same
   * arguments and `ctx.resumeValue`. Calls without a decision stay pending. Calls that
   * already have a result never run again; calls that have none and are not pending run.
   * A state of another version, or a decision for an unknown or already-settled call, or
   * for changed arguments, is refused with an error and changes nothing.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   * import { tool } from 'fino:ai/tool';
   * import { v } from 'fino:validate';
   *
   * const remove = tool({
   *   name: 'remove_file',
   *   description: 'Delete a file.',
   *   parameters: v.object({ path: v.string() }),
   *   requiresApproval: true,
   *   execute: async ({ path }: { path: string }) => `deleted ${path}`,
   * });
   * const bot = agent({
   *   model: scriptedModel([
   *     { toolCalls: [{ id: 'c1', name: 'remove_file', args: { path: 'a.txt' } }] },
   *     'Deleted.',
   *   ]),
   *   tools: [remove],
   * });
   * const first = await bot.generate('Delete a.txt');
   * if (first.status === 'suspended') {
   *   const saved = JSON.stringify(first.state);
   *   const second = await bot.resume(JSON.parse(saved), { c1: { approve: true } });
   *   console.log(second.status); // 'done'
   * }
   * ```
   */
  resume(
    state: RunState,
    decisions: Decisions = {},
    options: AgentRunOptions = {},
  ): Promise<RunResult<Output>> {
    return withRun(this.#config, options, quiet, async (run: Run) => {
      const current = readState(state, this.#config.stateSecret);
      run.active = current;
      const pendingBefore = [...(current.turn?.pending ?? [])];
      if (applyDecisions(current, decisions)) {
        run.telemetry.decisions(decisions);
        await run.checkpoint(current, 'decisions');
        for (const event of decidedResultEvents(current, pendingBefore)) run.emit(event);
      }
      return continueRun(current, run, 'until-paused');
    }) as Promise<RunResult<Output>>;
  }

  /**
   * This agent as a tool another agent can call: the call's `input` (or, with an `input`
   * schema, the arguments as JSON) becomes the user message, and the agent's final text
   * the tool's result. When this agent suspends, the tool suspends with the pending calls
   * and the state as payload; resume the outer call with `{ resume: { state, decisions } }`.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const researcher = agent({ model: scriptedModel(['Paris is the capital.']), name: 'researcher' });
   * const research = researcher.asTool({ description: 'Research a question.' });
   * const boss = agent({
   *   model: scriptedModel([
   *     { toolCalls: [{ name: 'researcher', args: { input: 'Capital of France?' } }] },
   *     'Paris.',
   *   ]),
   *   tools: [research],
   * });
   * console.log((await boss.generate('Capital of France?')).status); // 'done'
   * ```
   */
  asTool(options: AgentToolOptions): Tool<any, any> {
    return agentTool(this, options);
  }
}

/**
 * Creates an {@link Agent}: a model, its instructions and tools, when to stop
 * (`stopWhen`, default `maxSteps(8)`), an approval policy, and how many tool calls of
 * one turn run at once (`toolConcurrency`, default 8).
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const add = tool({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   parameters: v.object({ a: v.number(), b: v.number() }),
 *   execute: ({ a, b }: { a: number; b: number }) => String(a + b),
 * });
 * const bot = agent({
 *   model: scriptedModel([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, 'It is 5.']),
 *   instructions: 'You are a calculator.',
 *   tools: [add],
 * });
 * const result = await bot.generate('2 + 3?');
 * if (result.status === 'done') console.log(result.text); // 'It is 5.'
 * ```
 */
export function agent<S extends SchemaLike | undefined = undefined>(
  options: AgentOptions<S>,
): Agent<OutputOf<S>> {
  return new Agent<OutputOf<S>>(options);
}
