/**
 * A guardrail: a named check of a run's input, its final output, or a tool call before
 * or after it runs, that may trip and stop the run (decision 195). Made by
 * {@link guardrail} from a function or from a checker agent; the agent's options
 * `inputGuardrails`, `outputGuardrails` and `toolGuardrails` list them.
 */
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import type { ModelMessage } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import type { AgentRunOptions, RunResult } from './types.ts';

/** Where a guardrail runs: the run's input, its final output, a tool call before or after it runs. */
export type GuardrailKind = 'input' | 'output' | 'tool-before' | 'tool-after';

/**
 * What a check answers. `tripped: true` stops the run with a `GuardrailTrippedError`
 * carrying `output` — except a tool guardrail's trip with a `result`: a `tool-before`
 * one refuses the call (the model gets `result` as the call's error result), a
 * `tool-after` one replaces the tool's result with `result`, and the run goes on.
 */
export interface GuardrailVerdict {
  tripped: boolean;
  /** What the check found (a reason, a score, the checker agent's answer): carried by the error and the event. */
  output?: unknown;
  /** Tool guardrails only: what the model sees instead of running the call, or of its result. */
  result?: string;
}

/** What a check is given besides the value it checks. */
export interface GuardrailContext {
  kind: GuardrailKind;
  /** The name of the agent whose run it checks. */
  agent: string;
  runId: string;
  step: number;
  /** The conversation so far (a copy). */
  messages: ModelMessage[];
  /** Aborted when the run stops or the guardrail's `timeoutMs` passes. */
  signal: AbortSignal;
}

/**
 * A check: `input` is the user's input text (input guardrails), the final answer — the
 * validated `output` with an output schema, else the text (output guardrails), or
 * `{ toolName, toolCallId, args }` and, after the call, its `result` (tool guardrails).
 */
export type GuardrailCheck = (
  input: unknown,
  ctx: GuardrailContext,
) => GuardrailVerdict | Promise<GuardrailVerdict>;

/** An agent that checks: anything with `generate` (a fino `Agent`). */
export interface GuardrailAgent {
  readonly name: string;
  generate(input: string, options?: AgentRunOptions): Promise<RunResult>;
}

/** What {@link guardrail} accepts: `check`, or `agent` with `tripWhen`. */
export interface GuardrailOptions {
  /** Unique among the agent's guardrails: errors, events and spans name it. */
  name: string;
  check?: GuardrailCheck;
  /** A checker agent, run on the input (JSON unless a string); its result goes to `tripWhen`. */
  agent?: GuardrailAgent;
  /** With `agent`: whether its finished run trips the guardrail. */
  tripWhen?: (result: Extract<RunResult, { status: 'done' }>) => boolean;
  /** How long the check may take before the run fails with `GUARDRAIL_FAILED`; default 60,000. */
  timeoutMs?: number;
  /**
   * Input guardrails only: `true` (default) runs the check at the same time as the first
   * model request; `false` runs it before that request, so a trip costs no model call.
   */
  runInParallel?: boolean;
}

/** A checked guardrail, as {@link guardrail} returns it. */
export interface Guardrail {
  readonly name: string;
  readonly check: GuardrailCheck;
  readonly timeoutMs: number;
  readonly runInParallel: boolean;
}

/** How long a guardrail's check may take by default, in milliseconds. */
export const DEFAULT_GUARDRAIL_TIMEOUT_MS = 60_000;

const KNOWN = ['name', 'check', 'agent', 'tripWhen', 'timeoutMs', 'runInParallel'];

const invalid = (message: string) => new AgentError('INVALID_ARGUMENT', message);

/**
 * Makes a guardrail from a check function, or from a checker agent and `tripWhen`.
 * A check that throws, hangs past `timeoutMs` or answers something other than
 * `{ tripped: boolean }` fails the run with `GUARDRAIL_FAILED`: never a pass.
 *
 * @example
 * ```ts
 * import { agent, GuardrailTrippedError, guardrail } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const noHomework = guardrail({
 *   name: 'no_homework',
 *   check: (input) => ({ tripped: String(input).includes('homework'), output: 'homework' }),
 * });
 * const tutor = agent({ model: scriptedModel(['4']), inputGuardrails: [noHomework] });
 * try {
 *   await tutor.generate('Do my math homework: 2 + 2?');
 * } catch (error) {
 *   if (error instanceof GuardrailTrippedError) console.log(error.guardrail); // no_homework
 * }
 * ```
 */
export function guardrail(options: GuardrailOptions): Guardrail {
  if (options === null || typeof options !== 'object') {
    throw invalid(
      `guardrail(options): expected { name, check } or { name, agent, tripWhen }, received ${describe(options)}`,
    );
  }
  const unknown = unknownKeyMessage('guardrail(options)', options, KNOWN);
  if (unknown) throw invalid(unknown);
  const { name, timeoutMs = DEFAULT_GUARDRAIL_TIMEOUT_MS, runInParallel = true } = options;
  if (typeof name !== 'string' || name === '') {
    throw invalid(
      `guardrail(options).name: expected a non-empty string, received ${describe(name)}`,
    );
  }
  if (!(Number.isSafeInteger(timeoutMs) && timeoutMs > 0)) {
    throw invalid(
      `guardrail "${name}": timeoutMs: expected a positive integer of milliseconds, received ${describe(timeoutMs)}`,
    );
  }
  if (typeof runInParallel !== 'boolean') {
    throw invalid(
      `guardrail "${name}": runInParallel: expected a boolean, received ${describe(runInParallel)}`,
    );
  }
  return Object.freeze({ name, check: readCheck(name, options), timeoutMs, runInParallel });
}

/** The check of a guardrail: its `check`, or one that runs its checker agent. */
function readCheck(name: string, options: GuardrailOptions): GuardrailCheck {
  const { check, agent, tripWhen } = options;
  if (typeof check === 'function' && agent === undefined && tripWhen === undefined) return check;
  if (check !== undefined || typeof agent?.generate !== 'function') {
    throw invalid(
      `guardrail "${name}": expected either check: (input, ctx) => { tripped } or agent: Agent with tripWhen: (result) => boolean, received ${describe(options)}`,
    );
  }
  if (typeof tripWhen !== 'function') {
    throw invalid(
      `guardrail "${name}": tripWhen: expected a function (result) => boolean with agent, received ${describe(tripWhen)}`,
    );
  }
  return async (input, ctx) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    const result = await agent.generate(text, { signal: ctx.signal });
    if (result.status !== 'done') {
      throw new Error(`checker agent "${agent.name}" suspended; a guardrail agent cannot wait`);
    }
    return { tripped: tripWhen(result) === true, output: result.output ?? result.text };
  };
}

/**
 * The guardrails of one agent option (`where` names it), checked: each made by
 * {@link guardrail}; no name twice among all the agent's guardrails (`seen`).
 */
export function readGuardrails(
  value: unknown,
  where: string,
  seen: Set<string>,
): readonly Guardrail[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw invalid(`${where}: expected an array of guardrail(…), received ${describe(value)}`);
  }
  return value.map((entry, i) => {
    if (!isGuardrail(entry)) {
      throw invalid(
        `${where}[${i}]: expected a guardrail made by guardrail({ name, check }), received ${describe(entry)}`,
      );
    }
    if (seen.has(entry.name)) {
      throw invalid(
        `${where}[${i}]: a second guardrail named "${entry.name}"; guardrail names must be unique within an agent`,
      );
    }
    seen.add(entry.name);
    return entry;
  });
}

function isGuardrail(value: unknown): value is Guardrail {
  const g = value as Partial<Guardrail> | null;
  return (
    g !== null &&
    typeof g === 'object' &&
    typeof g.name === 'string' &&
    g.name !== '' &&
    typeof g.check === 'function' &&
    typeof g.timeoutMs === 'number' &&
    typeof g.runInParallel === 'boolean'
  );
}

/** An agent's guardrails, checked: what {@link readAgentGuardrails} returns. */
export interface AgentGuardrails {
  inputGuardrails: readonly Guardrail[];
  outputGuardrails: readonly Guardrail[];
  toolGuardrails: { before: readonly Guardrail[]; after: readonly Guardrail[] };
}

/**
 * The options `inputGuardrails`, `outputGuardrails` and `toolGuardrails` of `agent()`,
 * checked: arrays of guardrails, no name used twice across them.
 */
export function readAgentGuardrails(options: {
  inputGuardrails?: unknown;
  outputGuardrails?: unknown;
  toolGuardrails?: unknown;
}): AgentGuardrails {
  const seen = new Set<string>();
  const where = 'agent(options)';
  const tools = options.toolGuardrails ?? {};
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw invalid(
      `${where}.toolGuardrails: expected { before?, after? }, received ${describe(tools)}`,
    );
  }
  const unknown = unknownKeyMessage(`${where}.toolGuardrails`, tools, ['before', 'after']);
  if (unknown) throw invalid(unknown);
  const { before, after } = tools as { before?: unknown; after?: unknown };
  return {
    inputGuardrails: readGuardrails(options.inputGuardrails, `${where}.inputGuardrails`, seen),
    outputGuardrails: readGuardrails(options.outputGuardrails, `${where}.outputGuardrails`, seen),
    toolGuardrails: {
      before: readGuardrails(before, `${where}.toolGuardrails.before`, seen),
      after: readGuardrails(after, `${where}.toolGuardrails.after`, seen),
    },
  };
}
