/**
 * The agent options that choose a step's model and tools — `fallbackModels`,
 * `activeTools` and `prepareStep` — checked once when the agent is made.
 */
import { describeValue } from '../../internal/describe-value.ts';
import {
  fallback,
  isModel,
  type Model,
  type ModelMessage,
  type ProviderTool,
  type ToolChoice,
} from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import type { AnyTool } from './options.ts';
import type { StepResult } from './types.ts';

/** What `prepareStep` is told before a model request. */
export interface PrepareStepInfo {
  /** The zero-based index of the step about to request the model. */
  step: number;
  /** The steps made so far (a copy). */
  steps: StepResult[];
  /** The conversation so far, as the request will carry it before the context step (a copy). */
  messages: ModelMessage[];
  /** The name of the agent making the step. */
  agent: string;
}

/** What `prepareStep` may change for one step; what it leaves out keeps the agent's setting. */
export interface StepSettings {
  /** The model of this step (the agent's `fallbackModels` still back it up). */
  model?: Model;
  /** The system prompt of this step, instead of the agent's `instructions`. */
  instructions?: string;
  /** The names of the tools offered in this step (a call to another is answered as an error). */
  activeTools?: readonly string[];
  /** How the model may use the tools in this step. */
  toolChoice?: ToolChoice;
}

/**
 * A hook called before each model request: the settings of that step, or `undefined`
 * for the agent's own. Called again for the same step after a resume when the step's
 * answer was not yet stored, with the same information (docs/decisions/202).
 */
export type PrepareStep = (
  info: PrepareStepInfo,
) => StepSettings | undefined | Promise<StepSettings | undefined>;

/** The checked step options. */
export interface StepControl {
  /** The agent's `fallbackModels`, absent without any. */
  fallbackModels: readonly Model[] | undefined;
  /** The agent's `activeTools`, absent when every tool is active. */
  activeTools: readonly string[] | undefined;
  prepareStep: PrepareStep | undefined;
}

/** The step options of `agent()`, as they come. */
export interface StepControlOptions {
  fallbackModels?: readonly Model[];
  activeTools?: readonly string[];
  prepareStep?: PrepareStep;
}

/** Checks `fallbackModels`, `activeTools` and `prepareStep`. */
export function readStepControl(
  options: StepControlOptions,
  tools: ReadonlyMap<string, AnyTool>,
  providerTools: ReadonlyMap<string, ProviderTool>,
): StepControl {
  const { fallbackModels, activeTools, prepareStep } = options;
  if (prepareStep !== undefined && typeof prepareStep !== 'function') {
    throw invalid(
      `agent(options).prepareStep: expected a function (info) => StepSettings | undefined, received ${describeValue(prepareStep)}`,
    );
  }
  return {
    fallbackModels: readFallbackModels(fallbackModels),
    activeTools:
      activeTools === undefined
        ? undefined
        : checkToolNames('agent(options).activeTools', activeTools, tools, providerTools),
    prepareStep,
  };
}

/** `model` backed by the agent's fallback models, when it has any. */
export function withFallbacks(model: Model, control: StepControl): Model {
  return control.fallbackModels === undefined
    ? model
    : fallback([model, ...control.fallbackModels]);
}

/** Checks that `names` is an array of the agent's tool names, naming the first that is not. */
export function checkToolNames(
  where: string,
  names: unknown,
  tools: ReadonlyMap<string, AnyTool>,
  providerTools: ReadonlyMap<string, ProviderTool>,
): string[] {
  if (!Array.isArray(names)) {
    throw invalid(`${where}: expected an array of tool names, received ${describeValue(names)}`);
  }
  for (const [i, name] of names.entries()) {
    if (typeof name !== 'string' || !(tools.has(name) || providerTools.has(name))) {
      const known = [...tools.keys(), ...providerTools.keys()];
      throw invalid(
        `${where}[${i}]: ${typeof name === 'string' ? `"${name}" is not a tool of this agent` : `expected a tool name, received ${describeValue(name)}`}; its tools are ${known.length === 0 ? 'none' : known.join(', ')}`,
      );
    }
  }
  return [...names];
}

/** Checks that `model` is a Model, naming where it came from. */
export function checkModel(where: string, model: unknown): Model {
  if (!isModel(model)) {
    throw invalid(
      `${where}: expected a Model with generate() and stream(), received ${describeValue(model)}`,
    );
  }
  return model;
}

function readFallbackModels(models: unknown): readonly Model[] | undefined {
  if (models === undefined) return undefined;
  if (!Array.isArray(models) || models.length === 0) {
    throw invalid(
      `agent(options).fallbackModels: expected a non-empty array of Models (omit it for none), received ${describeValue(models)}`,
    );
  }
  return models.map((m, i) => checkModel(`agent(options).fallbackModels[${i}]`, m));
}

const invalid = (message: string) => new AgentError('INVALID_ARGUMENT', message);
