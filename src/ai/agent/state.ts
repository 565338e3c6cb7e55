import { randomUUID } from 'node:crypto';
import { hasMessageShape, MESSAGE_SHAPE } from '../../internal/message-shape.ts';
import { addCosts, type ModelMessage, type Usage } from '../model/index.ts';
import { AgentError, type AgentErrorCode } from './agent-error.ts';
import { checkContextState } from './context/check-state.ts';
import { describe } from './describe.ts';
import { checkGuardrailState } from './guardrail-state.ts';
import { checkHandoffState } from './handoff-switch.ts';
import { checkStoredResults } from './result-budget.ts';
import { type StateSecret, verifyState } from './state-signature.ts';
import { checkTraceContext } from './telemetry/index.ts';
import type { AgentInput, RunState } from './types.ts';

export { describe };

/**
 * The run-state version this agent writes and reads; `resume` refuses any other, and
 * `fino:ai/session` checks stored states against it.
 *
 * @example
 * ```ts
 * import { STATE_VERSION } from 'fino:ai/agent';
 *
 * console.log(STATE_VERSION); // 1
 * ```
 */
export const STATE_VERSION = 1;

const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

/** A fresh state for a run starting from `input`, after the earlier messages of `history`. */
export function initialState(
  input: AgentInput,
  runId: string | undefined,
  history?: readonly ModelMessage[],
  agent?: string,
): RunState {
  if (runId !== undefined && (typeof runId !== 'string' || runId === '')) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `runId: expected a non-empty string, received ${describe(runId)}`,
    );
  }
  return {
    version: STATE_VERSION,
    runId: runId ?? `run_${randomUUID()}`,
    messages: [...historyMessages(history), ...inputMessages(input)],
    steps: [],
    usage: zeroUsage(),
    ...(agent !== undefined && { agent }),
  };
}

/** A private copy of the run option `history`, each message checked; `[]` when absent. */
function historyMessages(history: unknown): ModelMessage[] {
  if (history === undefined) return [];
  if (!Array.isArray(history)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options.history: expected an array of messages, received ${describe(history)}`,
    );
  }
  history.forEach((message, i) => {
    checkMessage(message, `run options.history[${i}]`, 'INVALID_ARGUMENT');
  });
  return structuredClone(history);
}

function inputMessages(input: AgentInput): ModelMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent input: expected a string or an array of messages, received ${describe(input)}`,
    );
  }
  input.forEach((message, i) => {
    checkMessage(message, `input[${i}]`, 'INVALID_ARGUMENT');
  });
  return structuredClone(input);
}

/**
 * Checks that `value` is a state this module wrote (right version, right shape, and with
 * `secret` a signature made with it) and returns a private deep copy without its
 * signature, so a run never changes the caller's object.
 */
export function readState(value: unknown, secret?: StateSecret): RunState {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentError(
      'INVALID_STATE',
      `state: expected a run state object, received ${describe(value)}`,
    );
  }
  if (secret !== undefined) verifyState(value, secret);
  const state = value as Partial<RunState>;
  if (state.version !== STATE_VERSION) {
    throw new AgentError(
      'INVALID_STATE',
      `state: version ${describe(state.version)} is not supported; this agent reads version ${STATE_VERSION}`,
    );
  }
  if (typeof state.runId !== 'string' || state.runId === '') {
    throw new AgentError(
      'INVALID_STATE',
      `state.runId: expected a non-empty string, received ${describe(state.runId)}`,
    );
  }
  if (!Array.isArray(state.messages)) {
    throw new AgentError(
      'INVALID_STATE',
      `state.messages: expected an array, received ${describe(state.messages)}`,
    );
  }
  state.messages.forEach((message, i) => {
    checkMessage(message, `state.messages[${i}]`, 'INVALID_STATE');
  });
  if (!Array.isArray(state.steps)) {
    throw new AgentError(
      'INVALID_STATE',
      `state.steps: expected an array, received ${describe(state.steps)}`,
    );
  }
  state.steps.forEach((step, i) => {
    if (
      step === null ||
      typeof step !== 'object' ||
      !Array.isArray(step.toolCalls) ||
      !Array.isArray(step.toolResults) ||
      !step.toolCalls.every((call) => typeof call?.id === 'string' && typeof call.name === 'string')
    ) {
      throw new AgentError(
        'INVALID_STATE',
        `state.steps[${i}]: expected a step with toolCalls ({ id, name, args }) and toolResults arrays, received ${describe(step)}`,
      );
    }
  });
  const usage = state.usage as Partial<Usage> | undefined;
  if (
    usage === null ||
    typeof usage !== 'object' ||
    !['inputTokens', 'outputTokens', 'totalTokens'].every(
      (key) => typeof usage[key as keyof Usage] === 'number',
    )
  ) {
    throw new AgentError(
      'INVALID_STATE',
      `state.usage: expected { inputTokens, outputTokens, totalTokens } numbers, received ${describe(usage)}`,
    );
  }
  const cost = usage.cost;
  if (
    cost !== undefined &&
    cost !== 'unknown' &&
    (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0)
  ) {
    throw new AgentError(
      'INVALID_STATE',
      `state.usage.cost: expected a number of USD ≥ 0, 'unknown' or absent, received ${describe(cost)}`,
    );
  }
  const turn = state.turn;
  if (turn !== undefined) {
    if (turn === null || typeof turn !== 'object') {
      throw new AgentError(
        'INVALID_STATE',
        `state.turn: expected an object or absent, received ${describe(turn)}`,
      );
    }
    for (const key of ['results', 'pending', 'cleared'] as const) {
      if (!Array.isArray(turn[key])) {
        throw new AgentError(
          'INVALID_STATE',
          `state.turn.${key}: expected an array, received ${describe(turn[key])}`,
        );
      }
      turn[key].forEach((entry: { toolCallId?: unknown } | null, i: number) => {
        if (typeof entry?.toolCallId !== 'string') {
          throw new AgentError(
            'INVALID_STATE',
            `state.turn.${key}[${i}]: expected an entry with a toolCallId string, received ${describe(entry)}`,
          );
        }
      });
    }
    if (!Number.isInteger(turn.step) || !Array.isArray(state.steps[turn.step]?.toolCalls)) {
      throw new AgentError(
        'INVALID_STATE',
        `state.turn.step: expected the index of a step in state.steps, received ${describe(turn.step)}`,
      );
    }
  }
  checkHandoffState(state);
  checkStoredResults(state.results);
  checkTraceContext(state.trace);
  checkContextState(state.context, state.messages.length);
  checkGuardrailState(state.guardrails);
  const copy = structuredClone(state as RunState);
  delete copy.signature;
  return copy;
}

function checkMessage(message: unknown, where: string, code: AgentErrorCode): void {
  if (!hasMessageShape(message)) {
    throw new AgentError(
      code,
      `${where}: expected ${MESSAGE_SHAPE}, received ${describe(message)}`,
    );
  }
}

/**
 * Adds `b` into `a`, costs included: exact to the nano-dollar, `'unknown'` when either
 * is (a usage with tokens but no cost counts as unknown; one without tokens as 0). How a
 * run sums its steps, and a session a thread's runs.
 *
 * @example
 * ```ts
 * import { addUsage } from 'fino:ai/agent';
 * import type { Usage } from 'fino:ai/model';
 *
 * const total: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
 * addUsage(total, { inputTokens: 10, outputTokens: 2, totalTokens: 12, cost: 0.1 });
 * addUsage(total, { inputTokens: 20, outputTokens: 4, totalTokens: 24, cost: 0.2 });
 * console.log(total.totalTokens, total.cost); // 36 0.3
 * ```
 */
export function addUsage(a: Usage, b: Usage): void {
  if (a.cost !== undefined || b.cost !== undefined) a.cost = addCosts(costOf(a), costOf(b));
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.totalTokens += b.totalTokens;
  for (const key of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (typeof b[key] === 'number') a[key] = (a[key] ?? 0) + b[key];
  }
}

const costOf = (usage: Usage): number | 'unknown' =>
  usage.cost ?? (usage.totalTokens === 0 ? 0 : 'unknown');
