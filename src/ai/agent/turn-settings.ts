/** The request fields an agent sends with every model turn, read from its options. */
import { showValue } from '../../internal/describe-value.ts';
import { errorMessage } from '../../internal/thrown-value.ts';
import { normalizeSchema, type SchemaLike } from '../../validate/index.ts';
import type { GenerateRequest, ToolChoice } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import type { AgentOptions, AnyTool } from './options.ts';
import { describe } from './state.ts';

/** The request fields every model turn of an agent carries. */
export type TurnSettings = Pick<
  GenerateRequest,
  'maxTokens' | 'temperature' | 'toolChoice' | 'reasoning' | 'providerOptions' | 'output'
>;
const TOOL_CHOICES = new Set(['auto', 'none', 'required']);

/** Checks the options that become request fields of every turn. */
export function readSettings(
  options: AgentOptions,
  tools: ReadonlyMap<string, AnyTool>,
): TurnSettings {
  const { maxTokens, temperature, toolChoice, reasoning, providerOptions, output } = options;
  const settings: TurnSettings = {};
  if (maxTokens !== undefined) {
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `agent(options).maxTokens: expected a positive integer, received ${describe(maxTokens)}`,
      );
    }
    settings.maxTokens = maxTokens;
  }
  if (temperature !== undefined) {
    if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `agent(options).temperature: expected a finite number ≥ 0, received ${describe(temperature)}`,
      );
    }
    settings.temperature = temperature;
  }
  if (toolChoice !== undefined) settings.toolChoice = readToolChoice(toolChoice, tools);
  if (reasoning !== undefined) {
    if (reasoning === null || typeof reasoning !== 'object') {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `agent(options).reasoning: expected { effort?, budgetTokens? }, received ${describe(reasoning)}`,
      );
    }
    settings.reasoning = { ...reasoning };
  }
  if (providerOptions !== undefined) {
    if (providerOptions === null || typeof providerOptions !== 'object') {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `agent(options).providerOptions: expected an object keyed by provider name, received ${describe(providerOptions)}`,
      );
    }
    settings.providerOptions = providerOptions;
  }
  if (output !== undefined) settings.output = { schema: readOutputSchema(output) };
  return settings;
}

/** Checks `toolChoice`: a mode, or `{ name }` of one of the agent's tools. */
export function readToolChoice(
  choice: ToolChoice,
  tools: ReadonlyMap<string, AnyTool>,
  where = 'agent(options).toolChoice',
): ToolChoice {
  if (typeof choice === 'string' && TOOL_CHOICES.has(choice)) return choice;
  if (choice !== null && typeof choice === 'object' && typeof choice.name === 'string') {
    if (!tools.has(choice.name)) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `${where}: names the tool "${choice.name}", which is not among the agent's tools`,
      );
    }
    return { name: choice.name };
  }
  throw new AgentError(
    'INVALID_ARGUMENT',
    `${where}: expected 'auto', 'none', 'required' or { name }, received ${describe(choice)}`,
  );
}

/** Checks the `output` schema: an object schema, as providers' structured output requires. */
function readOutputSchema(output: SchemaLike) {
  let schema: ReturnType<typeof normalizeSchema>;
  try {
    schema = normalizeSchema(output);
  } catch (error) {
    throw new AgentError('INVALID_ARGUMENT', `agent(options).output: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (schema.type !== 'object') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).output: expected an object schema (type: 'object'), as providers' structured output requires, received a schema of type ${showValue(schema.type)}`,
    );
  }
  return schema;
}
