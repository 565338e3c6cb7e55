import type { Model, ToolCall, ToolDefinition } from '../model/index.ts';
import { type Tool, toToolDefinition } from '../tool/index.ts';
import { checkMaxResultChars, DEFAULT_MAX_RESULT_CHARS, READ_RESULT } from './result-budget.ts';
import { describe } from './state.ts';
import { maxSteps, type StopCondition } from './stop-when.ts';
import { readTelemetry, type TelemetryConfig, type TelemetryOptions } from './telemetry.ts';
import type { ApprovalAnswer } from './types.ts';

/** Any fino tool, whatever its argument and result types. */
export type AnyTool = Tool<any, any>;

/**
 * Decides whether a tool call may run: `'allow'` runs it, `'deny'` answers the model
 * with an `isError` result, `'ask'` makes it a pending approval. A tool with
 * `requiresApproval` is asked about whatever the policy says, unless it denies.
 */
export type ApprovalPolicy = (
  call: ToolCall,
  tool: AnyTool,
) => ApprovalAnswer | Promise<ApprovalAnswer>;

/** What `agent()` accepts. */
export interface AgentOptions {
  model: Model;
  /** The system prompt sent with every request. */
  instructions?: string;
  tools?: readonly AnyTool[];
  /** When to stop after a step with tool calls (one condition or any of several); default `maxSteps(8)`. */
  stopWhen?: StopCondition | readonly StopCondition[];
  approval?: ApprovalPolicy;
  /** How many tool calls of one turn run at once; default 8. */
  toolConcurrency?: number;
  /** A name for logs and for `asTool()`; default `'agent'`. */
  name?: string;
  /**
   * How many characters of a tool result reach the model (media count by their base64
   * size); a longer result is cut, and the model pages through the rest with the
   * built-in `read_result` tool. A tool's own `maxResultChars` wins. Default 20,000;
   * `Infinity` turns the budget off.
   */
  maxResultChars?: number;
  /** OpenTelemetry spans (on by default when `@opentelemetry/api` is installed); `false` turns them off. */
  telemetry?: false | TelemetryOptions;
}

/** Every option `agent()` knows, so an unknown one (a typo) is refused, not ignored. */
const KNOWN_OPTIONS: Record<keyof AgentOptions, true> = {
  model: true,
  instructions: true,
  tools: true,
  stopWhen: true,
  approval: true,
  toolConcurrency: true,
  name: true,
  maxResultChars: true,
  telemetry: true,
};

/** The checked, normalized form of {@link AgentOptions}. */
export interface AgentConfig {
  name: string;
  model: Model;
  instructions: string | undefined;
  tools: ReadonlyMap<string, AnyTool>;
  definitions: ToolDefinition[];
  stopWhen: readonly StopCondition[];
  approval: ApprovalPolicy | undefined;
  toolConcurrency: number;
  maxResultChars: number;
  telemetry: TelemetryConfig | undefined;
}

/** Default number of tool calls of one turn that run at once. */
export const DEFAULT_TOOL_CONCURRENCY = 8;

/** Checks `agent()` options, with an error naming the bad option and what was expected. */
export function readOptions(options: AgentOptions): AgentConfig {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `agent(options): expected an options object, received ${describe(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(KNOWN_OPTIONS, key)) {
      throw new TypeError(
        `agent(options): unknown option ${describe(key)}; expected one of ${Object.keys(KNOWN_OPTIONS).join(', ')}`,
      );
    }
  }
  const { model, instructions, tools = [], stopWhen, approval, name = 'agent' } = options;
  if (
    model === null ||
    typeof model !== 'object' ||
    typeof model.generate !== 'function' ||
    typeof model.stream !== 'function'
  ) {
    throw new TypeError(
      `agent(options).model: expected a Model with generate() and stream(), received ${describe(model)}`,
    );
  }
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new TypeError(
      `agent(options).instructions: expected a string, received ${describe(instructions)}`,
    );
  }
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(
      `agent(options).name: expected a non-empty string, received ${describe(name)}`,
    );
  }
  if (approval !== undefined && typeof approval !== 'function') {
    throw new TypeError(
      `agent(options).approval: expected a function (call, tool) => 'allow' | 'deny' | 'ask', received ${describe(approval)}`,
    );
  }
  const toolConcurrency = options.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY;
  if (!(Number.isInteger(toolConcurrency) || toolConcurrency === Infinity) || toolConcurrency < 1) {
    throw new RangeError(
      `agent(options).toolConcurrency: expected a positive integer or Infinity, received ${describe(toolConcurrency)}`,
    );
  }
  return {
    name,
    model,
    instructions,
    tools: readTools(tools),
    definitions: tools.map((t) => toToolDefinition(t)),
    stopWhen: readStopWhen(stopWhen),
    approval,
    toolConcurrency,
    maxResultChars: checkMaxResultChars(
      'agent(options).maxResultChars',
      options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    ),
    telemetry: readTelemetry(options.telemetry),
  };
}

function readTools(tools: readonly AnyTool[]): Map<string, AnyTool> {
  if (!Array.isArray(tools)) {
    throw new TypeError(
      `agent(options).tools: expected an array of tools, received ${describe(tools)}`,
    );
  }
  const byName = new Map<string, AnyTool>();
  tools.forEach((t, i) => {
    if (
      t === null ||
      typeof t !== 'object' ||
      typeof t.name !== 'string' ||
      typeof t.invoke !== 'function'
    ) {
      throw new TypeError(
        `agent(options).tools[${i}]: expected a Tool (from tool() or new Tool()), received ${describe(t)}`,
      );
    }
    if (t.name === READ_RESULT) {
      throw new TypeError(
        `agent(options).tools[${i}]: the name "${READ_RESULT}" is reserved for the built-in tool that pages through cut results; rename the tool`,
      );
    }
    if (byName.has(t.name)) {
      throw new TypeError(
        `agent(options).tools: two tools are named "${t.name}"; names must be unique`,
      );
    }
    byName.set(t.name, t);
  });
  return byName;
}

function readStopWhen(stopWhen: AgentOptions['stopWhen']): readonly StopCondition[] {
  if (stopWhen === undefined) return [maxSteps(8)];
  const conditions = Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  conditions.forEach((c, i) => {
    if (typeof c !== 'function') {
      throw new TypeError(
        `agent(options).stopWhen${Array.isArray(stopWhen) ? `[${i}]` : ''}: expected a stop condition such as maxSteps(n), received ${describe(c)}`,
      );
    }
  });
  return conditions;
}
