/**
 * What a run state keeps of its guardrails (`state.guardrails`, decision 196): the trips
 * so far, and what waits for a guardrail's verdict — the first model turn while input
 * guardrails still run, a tool's result while its after-guardrails run — so a process
 * killed mid-guardrail resumes without asking the model again or running the tool again.
 */
import type { GenerateResult } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import type { GuardrailKind } from './guardrail.ts';
import type { ToolResultPart } from './types.ts';

/** One tripped guardrail, as the run state records it. */
export interface GuardrailTrip {
  name: string;
  kind: GuardrailKind;
  step: number;
  /** What the check found. */
  output?: unknown;
  /** Tool guardrails: the call it checked. */
  toolCallId?: string;
}

/** The `guardrails` field of a run state. */
export interface GuardrailState {
  /** Every guardrail that tripped in the run, oldest first. */
  tripped?: GuardrailTrip[];
  /**
   * The first model turn, answered while input guardrails still ran: released into the
   * conversation when they pass, discarded (its usage kept) when one trips.
   */
  heldTurn?: GenerateResult;
  /** Tool results waiting for their after-guardrails, by step and call. */
  heldResults?: Array<{ step: number; result: ToolResultPart }>;
}

/** Appends a trip to the state's record. */
export function recordTrip(state: { guardrails?: GuardrailState }, trip: GuardrailTrip): void {
  const tripped = state.guardrails?.tripped ?? [];
  state.guardrails = { ...state.guardrails, tripped: [...tripped, trip] };
}

/** Drops the `guardrails` field once it holds nothing. */
export function tidyGuardrails(state: { guardrails?: GuardrailState }): void {
  const g = state.guardrails;
  if (g === undefined) return;
  if (g.heldResults?.length === 0) delete g.heldResults;
  if (Object.keys(g).length === 0) delete state.guardrails;
}

/** Checks a stored state's `guardrails` field: `INVALID_STATE` naming what is wrong. */
export function checkGuardrailState(value: unknown): void {
  if (value === undefined) return;
  const g = value as GuardrailState | null;
  const bad = (where: string, expected: string, received: unknown) =>
    new AgentError(
      'INVALID_STATE',
      `state.guardrails${where}: expected ${expected}, received ${describe(received)}`,
    );
  if (g === null || typeof g !== 'object' || Array.isArray(g)) {
    throw bad('', '{ tripped?, heldTurn?, heldResults? }', g);
  }
  if (g.tripped !== undefined && !Array.isArray(g.tripped))
    throw bad('.tripped', 'an array', g.tripped);
  g.tripped?.forEach((trip, i) => {
    if (typeof trip?.name !== 'string' || typeof trip.kind !== 'string') {
      throw bad(`.tripped[${i}]`, '{ name, kind, step }', trip);
    }
  });
  const held = g.heldTurn;
  if (
    held !== undefined &&
    (held?.message?.role !== 'assistant' || !Array.isArray(held.toolCalls))
  ) {
    throw bad('.heldTurn', 'a model turn with an assistant message and toolCalls', held);
  }
  if (g.heldResults !== undefined && !Array.isArray(g.heldResults)) {
    throw bad('.heldResults', 'an array', g.heldResults);
  }
  g.heldResults?.forEach((entry, i) => {
    if (!Number.isInteger(entry?.step) || typeof entry.result?.toolCallId !== 'string') {
      throw bad(`.heldResults[${i}]`, '{ step, result: a tool result }', entry);
    }
  });
}
