/**
 * `Tool`: a `Task` specialised for model tool calling.
 */

import { describeValue } from '../../internal/describe-value.ts';
import { type ContentPart, type SchemaInput, Task, type TaskOptions } from '../../task/index.ts';
import type { ToolRunContext } from './tool-run-context.ts';

/**
 * Value returned by a tool executor.
 *
 * A plain string is shorthand for a successful text result. The object form carries
 * structured `ContentPart`s (text, images, and so on) and may set `isError: true` to
 * report a domain failure to the model as a failed tool_result without throwing.
 */
export type ToolResult =
  | string
  | {
      content: ContentPart | ContentPart[] | string;
      isError?: boolean;
    };

/**
 * The options a tool passes on to its `Task` as they are, documented on `TaskOptions`:
 * approval, risk and MCP hints, scopes, deadline, isolation, output schema.
 */
type ToolTaskOption =
  | 'outputSchema'
  | 'effects'
  | 'requiresApproval'
  | 'risk'
  | 'sideEffects'
  | 'idempotent'
  | 'execution'
  | 'scopes'
  | 'timeoutMs'
  | 'throwOnError'
  | 'isolation';

/**
 * Definition used to create a `Tool`.
 *
 * `parameters` accepts a `fino:validate` builder such as `v.object({ id: v.string() })`,
 * a Standard Schema (Zod, Valibot, ArkType…), or a raw JSON Schema object when adapting
 * an external protocol. It is normalized to plain JSON Schema before being sent to
 * providers. With a builder or a Standard Schema, `execute`'s argument type is inferred.
 *
 * @example
 * ```ts
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const remove = tool({
 *   name: 'remove_file',
 *   description: 'Delete a file from the workspace.',
 *   parameters: v.object({ path: v.string().describe('Workspace-relative path') }),
 *   risk: 'destructive',
 *   sideEffects: true,
 *   requiresApproval: true,
 *   timeoutMs: 10_000,
 *   execute: async ({ path }) => `deleted ${path}`,
 * });
 * ```
 */
export interface ToolOptions<Args, R extends ToolResult = ToolResult>
  extends Pick<TaskOptions<Args, R>, ToolTaskOption> {
  /** Identifier the model calls the tool by. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** A human-readable name, for UIs and MCP. */
  title?: string;
  /** Schema of the arguments; none means an object with no properties. */
  parameters?: SchemaInput<Args>;
  /**
   * How many characters of a result reach a model in an agent run (media count by their
   * base64 size); a longer result is cut and the model pages through it with the built-in
   * `read_result` tool. A positive integer or `Infinity`; default: the agent's budget.
   */
  maxResultChars?: number;
  /** The executor: receives validated arguments and a complete context. */
  execute(args: Args, ctx: ToolRunContext): R | Promise<R>;
}

/**
 * Executable tool exposed to a model.
 *
 * A `Tool` is a `fino:task` `Task` specialised for model tool calling: the input schema
 * is normalized to JSON Schema at construction, output mode is fixed to text, and the
 * executor receives a fully-populated `ToolRunContext`. Agents call `invoke()` to get
 * the tool_result contract; `toToolDefinition()`, `run()` and the CLI surface remain
 * available — one tool for an agent, an MCP server, the command line and plain code.
 *
 * @example
 * ```ts
 * import { Tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const weather = new Tool({
 *   name: 'get_weather',
 *   description: 'Get current weather for a city.',
 *   parameters: v.object({ city: v.string() }),
 *   execute: async ({ city }) => `Sunny in ${city}`,
 * });
 * await weather.run({ city: 'Lisbon' }); // → 'Sunny in Lisbon'
 * await weather.invoke({ city: 7 }); // → { content: 'Invalid arguments for "get_weather":\n…', isError: true }
 * ```
 */
export class Tool<Args = unknown, R extends ToolResult = ToolResult> extends Task<Args, R> {
  /** A human-readable name, when given. */
  readonly title: string | undefined;
  /** The result budget in an agent run, when given (else the agent's). */
  readonly maxResultChars: number | undefined;

  constructor(options: ToolOptions<Args, R>) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(
        `Tool options: expected an object with at least \`name\` and \`execute\`, received ${describeValue(options)}`,
      );
    }
    const { execute } = options;
    if (typeof execute !== 'function') {
      throw new TypeError(
        `Tool "${String(options.name)}": execute: expected a function, received ${describeValue(execute)}`,
      );
    }
    super({
      name: options.name,
      description: options.description,
      inputSchema: options.parameters,
      outputSchema: options.outputSchema,
      outputMode: 'text',
      effects: options.effects,
      requiresApproval: options.requiresApproval,
      risk: options.risk,
      sideEffects: options.sideEffects,
      idempotent: options.idempotent,
      execution: options.execution,
      scopes: options.scopes,
      timeoutMs: options.timeoutMs,
      throwOnError: options.throwOnError,
      isolation: options.isolation,
      // A task's context is a complete ToolRunContext (suspend included).
      run: execute,
    });
    const type = this.parameters.type;
    if (type !== undefined && type !== 'object') {
      throw new TypeError(
        `Tool "${this.name}": parameters: expected an object schema (models send named arguments), received a schema of type ${JSON.stringify(type)}`,
      );
    }
    this.title = options.title;
    const { maxResultChars } = options;
    if (
      maxResultChars !== undefined &&
      (typeof maxResultChars !== 'number' ||
        !(Number.isInteger(maxResultChars) || maxResultChars === Infinity) ||
        maxResultChars < 1)
    ) {
      throw new RangeError(
        `Tool "${this.name}": maxResultChars: expected a positive integer or Infinity, received ${describeValue(maxResultChars)}`,
      );
    }
    this.maxResultChars = maxResultChars;
  }
}

/**
 * Create a tool from a schema and executor; the same as `new Tool(opts)`.
 *
 * @example
 * ```ts
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const add = tool({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   parameters: v.object({ a: v.number(), b: v.number() }),
 *   execute: ({ a, b }) => String(a + b),
 * });
 * await add.invoke({ a: 1, b: 2 }); // → { content: '3' }
 * ```
 */
export function tool<Args = unknown, R extends ToolResult = ToolResult>(
  opts: ToolOptions<Args, R>,
): Tool<Args, R> {
  return new Tool(opts);
}
