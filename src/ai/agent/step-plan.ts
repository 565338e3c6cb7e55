/**
 * The plan of one step: the model, instructions, offered tools and tool choice of its
 * model request — the agent's, or what `prepareStep` returned for it, checked — and
 * what the step records of it (the model that answered, the tools it offered).
 */
import { describeValue } from '../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import type { GenerateResult, Model, ToolChoice } from '../model/index.ts';
import { raceAbort } from './abort.ts';
import { AgentError } from './agent-error.ts';
import type { Run } from './run.ts';
import { checkModel, checkToolNames, type StepSettings, withFallbacks } from './step-control.ts';
import { readToolChoice } from './turn-settings.ts';
import type { RunState, StepResult } from './types.ts';

/** The settings of one step's model request. */
export interface StepPlan {
  model: Model;
  instructions: string | undefined;
  /** The tools offered, absent when all are. */
  activeTools: readonly string[] | undefined;
  /** Absent: the agent's `toolChoice`. */
  toolChoice?: ToolChoice;
}

const KNOWN_SETTINGS: Record<keyof StepSettings, true> = {
  model: true,
  instructions: true,
  activeTools: true,
  toolChoice: true,
};

/** The plan of step `step`: the agent's settings, with what `prepareStep` changes. */
export async function planStep(state: RunState, run: Run, step: number): Promise<StepPlan> {
  const { config } = run;
  const plan: StepPlan = {
    model: config.model,
    instructions: config.instructions,
    activeTools: config.stepControl.activeTools,
  };
  const { prepareStep } = config.stepControl;
  if (prepareStep === undefined) return plan;
  // The run's abort ends a hook that hangs.
  const settings = await raceAbort(
    Promise.resolve(
      prepareStep({
        step,
        steps: structuredClone(state.steps),
        messages: structuredClone(state.messages),
        agent: config.name,
      }),
    ),
    run.signal,
  );
  if (settings === undefined || settings === null) return plan;
  return applySettings(plan, settings, run);
}

/** What a step records of its plan and its answer: the model that answered, the tools offered. */
export function stepRecord(
  plan: StepPlan,
  answer: GenerateResult,
): Pick<StepResult, 'model' | 'activeTools'> {
  const record: Pick<StepResult, 'model' | 'activeTools'> = {
    model: answer.model ?? plan.model.id,
  };
  if (plan.activeTools !== undefined) record.activeTools = [...plan.activeTools];
  return record;
}

/**
 * Whether the tool `name` was offered in the step whose calls are being settled: a
 * call to a tool the step did not offer is answered as an error, also after a resume.
 */
export function offeredInStep(state: RunState, name: string): boolean {
  const active = state.turn ? state.steps[state.turn.step]?.activeTools : undefined;
  return active === undefined || active.includes(name);
}

function applySettings(plan: StepPlan, settings: StepSettings, run: Run): StepPlan {
  const where = 'agent(options).prepareStep returned';
  if (typeof settings !== 'object') {
    throw invalid(`${where} ${describeValue(settings)}: expected StepSettings or undefined`);
  }
  const unknown = unknownKeyMessage(where, settings, Object.keys(KNOWN_SETTINGS));
  if (unknown) throw invalid(unknown);
  const { config } = run;
  const next = { ...plan };
  if (settings.model !== undefined) {
    next.model = withFallbacks(checkModel(`${where} model`, settings.model), config.stepControl);
  }
  if (settings.instructions !== undefined) {
    if (typeof settings.instructions !== 'string') {
      throw invalid(
        `${where} instructions: expected a string, received ${describeValue(settings.instructions)}`,
      );
    }
    next.instructions = settings.instructions;
  }
  if (settings.activeTools !== undefined) {
    next.activeTools = checkToolNames(
      `${where} activeTools`,
      settings.activeTools,
      config.tools,
      config.providerTools,
    );
  }
  if (settings.toolChoice !== undefined) {
    next.toolChoice = readToolChoice(settings.toolChoice, config.tools, `${where} toolChoice`);
  }
  return next;
}

const invalid = (message: string) => new AgentError('INVALID_ARGUMENT', message);

/** The step fields of a requested turn, to store in its {@link StepResult}. */
export function answeredBy(
  turn: Pick<StepResult, 'model' | 'activeTools'>,
): Pick<StepResult, 'model' | 'activeTools'> {
  return turn.activeTools === undefined
    ? { model: turn.model }
    : { model: turn.model, activeTools: turn.activeTools };
}

/** The answer to a call of a tool its step did not offer. */
export const notOfferedMessage = (name: string): string =>
  `Tool "${name}" is not available at this step: it was not among the tools offered.`;
