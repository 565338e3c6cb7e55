/**
 * Running guardrails: each check bounded by its `timeoutMs` and the run's signal, its
 * answer checked, a `guardrail` event per verdict; several at once, settled by the first
 * trip or failure (the others are aborted). And stopping a run on a trip (decision 195).
 */
import { errorMessage } from '../../internal/thrown-value.ts';
import { abortError } from './abort.ts';
import { describe } from './describe.ts';
import type { Guardrail, GuardrailKind, GuardrailVerdict } from './guardrail.ts';
import { GuardrailFailedError, GuardrailTrippedError } from './guardrail-error.ts';
import { recordTrip, tidyGuardrails } from './guardrail-state.ts';
import type { Run } from './run.ts';
import { signState } from './state-signature.ts';
import type { RunState } from './types.ts';

/** Where the guardrails run: their kind, the step, and for tool guardrails the call. */
export interface GuardrailSite {
  kind: GuardrailKind;
  step: number;
  toolCallId?: string;
}

/** A guardrail that tripped, and its verdict. */
export interface Trip {
  guardrail: Guardrail;
  verdict: GuardrailVerdict;
}

/**
 * Runs `guardrails` on `input` at once: resolves with the first that trips (the others
 * are aborted) or `undefined` when all pass; rejects with a `GuardrailFailedError` when
 * a check fails, or an `AbortError` when the run is aborted.
 */
export async function runGuardrails(
  guardrails: readonly Guardrail[],
  input: unknown,
  site: GuardrailSite,
  state: RunState,
  run: Run,
): Promise<Trip | undefined> {
  if (guardrails.length === 0) return undefined;
  const stop = new AbortController();
  const signal = AbortSignal.any([run.signal, stop.signal]);
  try {
    return await new Promise<Trip | undefined>((resolve, reject) => {
      let open = guardrails.length;
      for (const g of guardrails) {
        runOne(g, input, site, state, run, signal).then((verdict) => {
          if (verdict.tripped) resolve({ guardrail: g, verdict });
          else if (--open === 0) resolve(undefined);
        }, reject);
      }
    });
  } finally {
    stop.abort();
  }
}

/** One check, bounded by its timeout, its answer checked, its `guardrail` event emitted. */
async function runOne(
  g: Guardrail,
  input: unknown,
  site: GuardrailSite,
  state: RunState,
  run: Run,
  runSignal: AbortSignal,
): Promise<GuardrailVerdict> {
  const timeout = new AbortController();
  const signal = AbortSignal.any([runSignal, timeout.signal]);
  const ctx = {
    kind: site.kind,
    agent: run.config.name,
    runId: state.runId,
    step: site.step,
    messages: state.messages.slice(),
    signal,
  };
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<unknown>((resolve, reject) => {
    timer = setTimeout(() => {
      timeout.abort();
      reject(
        new GuardrailFailedError(
          g.name,
          site.kind,
          `no verdict within its timeoutMs (${g.timeoutMs} ms)`,
        ),
      );
    }, g.timeoutMs);
    runSignal.addEventListener('abort', () => reject(abortError(runSignal)), { once: true });
    Promise.resolve()
      .then(() => g.check(input, ctx))
      .then(resolve, (error: unknown) =>
        reject(
          runSignal.aborted
            ? abortError(runSignal)
            : new GuardrailFailedError(
                g.name,
                site.kind,
                `its check threw: ${errorMessage(error)}`,
                {
                  cause: error,
                },
              ),
        ),
      );
  });
  try {
    const verdict = readVerdict(await answer, g, site.kind);
    const event = { type: 'guardrail' as const, step: site.step, name: g.name, kind: site.kind };
    const call = site.toolCallId === undefined ? {} : { toolCallId: site.toolCallId };
    run.emit({ ...event, tripped: verdict.tripped, ...call });
    return verdict;
  } finally {
    clearTimeout(timer);
  }
}

/** The check's answer as a verdict, or a `GuardrailFailedError` saying what it was. */
function readVerdict(value: unknown, g: Guardrail, kind: GuardrailKind): GuardrailVerdict {
  const toolKind = kind === 'tool-before' || kind === 'tool-after';
  const v = plainVerdict(value);
  if (
    v === undefined ||
    typeof v.tripped !== 'boolean' ||
    (v.result !== undefined && (typeof v.result !== 'string' || !toolKind))
  ) {
    const shape = toolKind
      ? '{ tripped: boolean, output?, result?: string }'
      : '{ tripped: boolean, output? }';
    throw new GuardrailFailedError(
      g.name,
      kind,
      `expected its check to return ${shape}, received ${describe(value)}`,
    );
  }
  return {
    tripped: v.tripped,
    output: v.output,
    ...(v.result !== undefined && { result: v.result }),
  };
}

/** The verdict's fields, read once (a throwing getter or a revoked Proxy is no verdict). */
function plainVerdict(value: unknown): Partial<GuardrailVerdict> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  try {
    const { tripped, output, result } = value as Partial<GuardrailVerdict>;
    return { tripped, output, result };
  } catch {
    return undefined;
  }
}

/**
 * Stops the run on a trip: records it in the state, checkpoints that state
 * (`guardrail-tripped`) and throws a `GuardrailTrippedError` carrying a copy of it.
 */
export async function stopOnTrip(
  trip: Trip,
  site: GuardrailSite,
  state: RunState,
  run: Run,
): Promise<never> {
  const { guardrail: g, verdict } = trip;
  recordTrip(state, {
    name: g.name,
    kind: site.kind,
    step: site.step,
    output: verdict.output,
    ...callOf(site),
  });
  tidyGuardrails(state);
  await run.checkpoint(state, 'guardrail-tripped');
  const copy = structuredClone(state);
  const secret = run.config.stateSecret;
  throw new GuardrailTrippedError(
    g.name,
    site.kind,
    verdict.output,
    secret === undefined ? copy : signState(copy, secret),
  );
}

/** `{ toolCallId }` for a tool guardrail's site, else nothing. */
export const callOf = (site: GuardrailSite) =>
  site.toolCallId === undefined ? {} : { toolCallId: site.toolCallId };
