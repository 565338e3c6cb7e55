/**
 * `Task`: a named, validated unit of work that runs directly, as a tool call (the
 * tool_result contract) or from a command line.
 */

import { describeValue } from '../internal/describe-value.ts';
import {
  type CompiledValidator,
  compile,
  isBuilder,
  isStandardSchema,
  normalizeSchema,
  type SafeParseResult,
  type SchemaLike,
} from '../validate/index.ts';
import { isTask, TASK_BRAND } from './brand.ts';
import { callExecutor, settleAsync } from './call-executor.ts';
import { type CliSpec, deriveCliSpec } from './cli-spec.ts';
import type { JsonSchemaObject, ToolDefinition, ToolResultObject } from './content.ts';
import { UsageError } from './errors.ts';
import { RunContextFromOptions } from './execution-context.ts';
import { renderHelp } from './help.ts';
import { invalidArgumentsText } from './invalid-arguments.ts';
import { isThenable } from './is-thenable.ts';
import { type ResolvedIsolation, registerExecutor, resolveIsolation } from './isolation/index.ts';
import { normalizeResult } from './normalize-result.ts';
import { type ParsedCommand, type ParseOptions, parseCommand } from './parse-command.ts';
import { checkTaskOptions } from './task-options.ts';
import { executorThrew, validationThrew } from './tool-result-errors.ts';
import type {
  AnyTask,
  InvokeContext,
  OutputMode,
  OutputModes,
  Risk,
  TaskExecution,
  TaskOptions,
  TaskRunOptions,
} from './types.ts';
import { discardingWriter } from './writers.ts';

export type { ParsedCommand, ParseOptions } from './parse-command.ts';

/** A signal that never aborts, for calls made without one. */
const NEVER_ABORTED = new AbortController().signal;

const NO_CONTEXT: InvokeContext = Object.freeze({});

/**
 * A named, validated unit of work. `run()` executes it directly, `invoke()` as a model's
 * tool call (never throwing for bad arguments or executor errors), and `parse()`/`help()`
 * give it a command line. `Tool` (from `fino:ai/tool`) is a `Task`.
 *
 * @example
 * ```ts
 * import { Task } from 'fino:task';
 * import { v } from 'fino:validate';
 *
 * const greet = new Task({
 *   name: 'greet',
 *   description: 'Greet someone.',
 *   inputSchema: v.object({ name: v.string() }),
 *   run: ({ name }: { name: string }) => `Hello, ${name}!`,
 * });
 * await greet.run({ name: 'Ada' }); // → 'Hello, Ada!'
 * await greet.invoke({ name: 42 }); // → { content: 'Invalid arguments for "greet":\nname: …', isError: true }
 * ```
 */
export class Task<Input = unknown, Output = unknown> {
  declare readonly [TASK_BRAND]: true;
  readonly name: string;
  readonly description: string;
  /** The input schema as given (`undefined` when none). */
  readonly inputSchema: SchemaLike | undefined;
  /** The input schema as plain JSON Schema, or `{ type: 'object', properties: {} }`. */
  readonly parameters: JsonSchemaObject;
  readonly outputSchema: SchemaLike | undefined;
  readonly outputMode: OutputModes;
  /** The command-line options: `cli` as given, or derived from the input schema. */
  readonly cli: CliSpec;
  readonly children: readonly AnyTask[];
  readonly effects: readonly string[];
  readonly requiresApproval: boolean;
  readonly risk: Risk | undefined;
  /** `undefined` when not declared, which is not the same as `false`. */
  readonly sideEffects: boolean | undefined;
  /** Whether a repeated call has no further effect; `undefined` when not declared. */
  readonly idempotent: boolean | undefined;
  /** How MCP clients may run it: as an MCP Task (`'task'`), either way, or `undefined` (ordinary calls). */
  readonly execution: TaskExecution | undefined;
  /** OAuth scopes an `mcpServer({ auth })` caller needs (empty: none). */
  readonly scopes: readonly string[];
  readonly timeoutMs: number | undefined;
  readonly throwOnError: boolean;
  readonly #execute: TaskOptions<Input, Output>['run'];
  /** Where the executor runs when `isolation` is set (decision 082). */
  readonly #isolation: ResolvedIsolation | undefined;
  readonly #validator: CompiledValidator<unknown> | undefined;
  /** A foreign Standard Schema may validate asynchronously. */
  readonly #asyncValidation: boolean;

  constructor(options: TaskOptions<Input, Output>) {
    const { name, run, timeoutMs, outputMode, risk, idempotent, execution, scopes } =
      checkTaskOptions(options);
    this.name = name;
    this.description = options.description ?? '';
    const schema = options.inputSchema as SchemaLike | undefined;
    this.inputSchema = schema;
    this.parameters =
      schema === undefined ? { type: 'object', properties: {} } : normalizeSchema(schema);
    this.#validator = schema === undefined ? undefined : compile(schema);
    this.#asyncValidation = isStandardSchema(schema) && !isBuilder(schema);
    this.outputSchema = options.outputSchema;
    this.outputMode = outputMode;
    this.cli = deriveCliSpec(this.parameters, options.cli);
    this.children = [...(options.children ?? [])];
    const notTask = this.children.findIndex((child) => !isTask(child));
    if (notTask !== -1) {
      throw new TypeError(
        `Task "${name}": children[${notTask}]: expected a task (from task() or tool()), received ${describeValue(this.children[notTask])}`,
      );
    }
    this.effects = [...(options.effects ?? [])];
    this.requiresApproval = options.requiresApproval ?? false;
    this.risk = risk;
    this.sideEffects = options.sideEffects;
    this.idempotent = idempotent;
    this.execution = execution;
    this.scopes = scopes;
    this.timeoutMs = timeoutMs;
    this.throwOnError = options.throwOnError ?? false;
    this.#execute = run;
    this.#isolation =
      options.isolation === undefined ? undefined : resolveIsolation(name, options.isolation);
    if (this.#isolation) registerExecutor(this.#isolation.moduleUrl, name, run);
  }

  /**
   * Whether the executor runs in a worker thread (`isolation: 'worker'`).
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * task({ name: 'hello', run: () => 'Hello!' }).isolated; // → false
   * ```
   */
  get isolated(): boolean {
    return this.#isolation !== undefined;
  }

  /**
   * Whether this task can produce output in `mode`.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * task({ name: 'report', outputMode: 'both', run: () => ({}) }).supports('json'); // → true
   * ```
   */
  supports(mode: OutputMode): boolean {
    return this.outputMode === 'both' || this.outputMode === mode;
  }

  /**
   * Validates `input` and runs the task, returning the executor's output. Throws a
   * `ValidationError` for invalid input, and whatever the executor throws.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * const now = task({ name: 'now', outputMode: 'both', run: () => ({ at: 0 }) });
   * await now.run(undefined, { mode: 'json' }); // → { at: 0 }
   * ```
   */
  async run(input?: Input, options: TaskRunOptions = {}): Promise<Output> {
    const mode = options.mode ?? options.writer?.mode ?? 'text';
    if (!this.supports(mode)) {
      throw new UsageError(
        `Task "${this.name}" cannot produce "${mode}" output: it supports "${this.outputMode}"`,
      );
    }
    if (options.writer && options.writer.mode !== mode) {
      throw new UsageError(
        `Task "${this.name}": the writer's mode "${options.writer.mode}" differs from the requested mode "${mode}"`,
      );
    }
    options.signal?.throwIfAborted();
    const result = this.#asyncValidation ? await this.#validateAsync(input) : this.#validate(input);
    if (!result.success) throw result.error;
    const writer = options.writer ?? discardingWriter(mode);
    const signal = options.signal ?? NEVER_ABORTED;
    const context = new RunContextFromOptions(options, signal, writer);
    return this.#call(result.value as Input, options, context);
  }

  /**
   * Runs the task as a model's tool call and returns the tool_result contract:
   * invalid arguments, executor errors and results that are not tool results become
   * `{ content, isError: true }` (rethrown instead when `throwOnError`); errors named
   * `AbortError` or `SuspendSignal` always propagate. The error texts it writes are at
   * most 8,192 characters and list at most 20 validation issues (decision 059).
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * const fail = task({ name: 'fail', run: () => { throw new Error('disk full'); } });
   * await fail.invoke({}); // → { content: 'disk full', isError: true }
   * ```
   */
  invoke(args: unknown, ctx: InvokeContext = NO_CONTEXT): Promise<ToolResultObject> {
    // Not an `async` function: the common call (synchronous validation and executor) then
    // costs one settled promise and no suspended frame (decision 087). Whatever is thrown
    // past the folding below rejects the promise, as an `async` function's throw would.
    try {
      ctx.signal?.throwIfAborted();
      if (this.#asyncValidation) return this.#invokeAfterAsyncValidation(args, ctx);
      let result: SafeParseResult<unknown>;
      try {
        result = this.#validate(args);
      } catch (error) {
        return Promise.resolve(validationThrew(this, error));
      }
      return Promise.resolve(this.#settleCall(result, ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `invoke()` with a validator that may be asynchronous (a foreign Standard Schema). */
  async #invokeAfterAsyncValidation(args: unknown, ctx: InvokeContext): Promise<ToolResultObject> {
    let result: SafeParseResult<unknown>;
    try {
      result = await this.#validateAsync(args);
    } catch (error) {
      return validationThrew(this, error);
    }
    return this.#settleCall(result, ctx);
  }

  /**
   * The tool result for validated arguments: invalid ones reported, valid ones passed to
   * the executor. A synchronous executor's value is used as it is, without a promise:
   * awaiting it would cost a tick.
   */
  #settleCall(
    result: SafeParseResult<unknown>,
    ctx: InvokeContext,
  ): ToolResultObject | Promise<ToolResultObject> {
    if (!result.success) {
      if (this.throwOnError) throw result.error;
      return { content: invalidArgumentsText(this.name, result.issues), isError: true };
    }
    let context: RunContextFromOptions;
    let output: Output | Promise<Output>;
    try {
      // No writer: the executor's text goes to a buffer, made only if it asks for one.
      context = new RunContextFromOptions(ctx, ctx.signal ?? NEVER_ABORTED, undefined);
      output = this.#call(result.value as Input, ctx, context);
      if (!isThenable(output)) return normalizeResult(this.name, output, context.written);
    } catch (error) {
      return executorThrew(this, error, ctx);
    }
    return settleAsync(this, output, context, ctx);
  }

  /**
   * Parses command-line arguments: a first argument naming a child runs that
   * subcommand (any other word is an unknown command, for a task with children and no
   * positionals); options come from `cli`; `--json` asks for JSON output; `--help` for
   * help. Throws a `UsageError` naming the flag and what was expected.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   * import { v } from 'fino:validate';
   *
   * const add = task({
   *   name: 'add',
   *   inputSchema: v.object({ a: v.number(), b: v.number() }),
   *   run: ({ a, b }: { a: number; b: number }) => String(a + b),
   * });
   * add.parse(['--a', '1', '--b=2']).input; // → { a: 1, b: 2 }
   * ```
   */
  parse(argv: readonly string[], options: ParseOptions = {}): ParsedCommand<Input> {
    const validator = this.#asyncValidation ? undefined : this.#validator;
    return parseCommand(this, argv, options, validator) as ParsedCommand<Input>;
  }

  /**
   * The `--help` text: usage, description, options and subcommands.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * task({ name: 'noop', description: 'Do nothing.', run: () => '' }).help();
   * // → 'Usage: noop [options]\n\nDo nothing.\n\nOptions:\n  -h, --help  Show this help'
   * ```
   */
  help(usage: string = this.name): string {
    return renderHelp({
      usage,
      description: this.description,
      cli: this.cli,
      children: this.children,
      json: this.supports('json'),
    });
  }

  /**
   * The child task named `name`, or `undefined`.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * const add = task({ name: 'add', run: () => '' });
   * task({ name: 'calc', children: [add], run: () => '' }).child('add') === add; // → true
   * ```
   */
  child(name: string): AnyTask | undefined {
    return this.children.find((c) => c.name === name);
  }

  /**
   * The child tasks (subcommands), in declaration order.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * const calc = task({ name: 'calc', children: [task({ name: 'add', run: () => '' })], run: () => '' });
   * calc.list().map((t) => t.name); // → ['add']
   * ```
   */
  list(): readonly AnyTask[] {
    return this.children;
  }

  /**
   * The provider-neutral definition a model is given: name, description and the JSON
   * Schema of the arguments.
   *
   * @example
   * ```ts
   * import { task } from 'fino:task';
   *
   * task({ name: 'noop', run: () => '' }).toToolDefinition();
   * // → { name: 'noop', description: '', parameters: { type: 'object', properties: {} } }
   * ```
   */
  toToolDefinition(): ToolDefinition {
    return { name: this.name, description: this.description, parameters: this.parameters };
  }

  #validate(value: unknown): SafeParseResult<unknown> {
    return this.#validator === undefined
      ? { success: true, value }
      : this.#validator.safeParse(value);
  }

  #validateAsync(value: unknown): Promise<SafeParseResult<unknown>> {
    return this.#validator!.safeParseAsync(value);
  }

  #call(
    input: Input,
    options: TaskRunOptions,
    context: RunContextFromOptions,
  ): Output | Promise<Output> {
    return callExecutor(this, this.#execute, this.#isolation, input, options, context);
  }
}
Object.defineProperty(Task.prototype, TASK_BRAND, { value: true });

/**
 * Creates a task; the same as `new Task(options)`.
 *
 * @example
 * ```ts
 * import { task } from 'fino:task';
 *
 * const hello = task({ name: 'hello', run: () => 'Hello!' });
 * await hello.invoke({}); // → { content: 'Hello!' }
 * ```
 */
export function task<Input = unknown, Output = unknown>(
  options: TaskOptions<Input, Output>,
): Task<Input, Output> {
  return new Task(options);
}
