/**
 * MCP prompts: `prompt()` and what `mcpServer()` answers for `prompts/list` and
 * `prompts/get`. Arguments are a fino:validate schema of string properties, checked
 * with fino's repairable messages. Decision 121.
 */
import {
  type GetPromptResult,
  type Prompt as McpPrompt,
  type PromptMessage,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import type { ContentPart, ElicitAnswer, ElicitRequest, LogFn } from '../../../task/index.ts';
import {
  type CompiledValidator,
  compile,
  formatIssues,
  normalizeSchema,
  type SchemaLike,
} from '../../../validate/index.ts';
import { toMcpContent } from '../protocol/index.ts';
import { type CompleteFn, checkCompleters } from './resources.ts';

/** What a prompt's `get` receives besides its arguments. */
export interface PromptContext {
  signal: AbortSignal;
  log: LogFn;
  /**
   * Asks the client's user a form, as a tool's `ctx.elicit()` does: over a 2025-era
   * connection while `prompts/get` is open; on 2026-07-28 through an input-required
   * result, `get` running again with the answer (decision 207).
   */
  elicit(request: ElicitRequest): Promise<ElicitAnswer>;
}

/** One message of a prompt: text, or one content part (text, image, audio, resource). */
export interface PromptMessageInput {
  role: 'user' | 'assistant';
  content: string | ContentPart;
}

/** Options of {@link prompt}. */
export interface PromptOptions<Args extends Record<string, string> = Record<string, string>> {
  name: string;
  title?: string;
  description?: string;
  /** A fino:validate schema (or JSON Schema) of an object whose properties are strings. */
  arguments?: SchemaLike;
  /** Suggestions for an argument's value (`completion/complete`), by argument name. */
  complete?: Record<string, CompleteFn>;
  /** The messages, or one user message's text. */
  get(
    args: Args,
    ctx: PromptContext,
  ): string | PromptMessageInput[] | Promise<string | PromptMessageInput[]>;
}

const PROMPT_BRAND: unique symbol = Symbol.for('fino.mcp.prompt');

/** A prompt made by {@link prompt}. */
export interface McpServedPrompt extends PromptOptions {
  readonly [PROMPT_BRAND]: true;
  /** The `prompts/list` entry. */
  readonly definition: McpPrompt;
  readonly validator: CompiledValidator<unknown> | undefined;
}

/** The most characters one argument value may have. */
export const MAX_ARGUMENT_CHARS = 100_000;

/**
 * A prompt template a client can list and fill in.
 *
 * @example
 * ```ts
 * import { mcpServer, prompt } from 'fino:ai/mcp';
 * import { v } from 'fino:validate';
 *
 * const review = prompt({
 *   name: 'review_code',
 *   description: 'Ask for a code review.',
 *   arguments: v.object({ language: v.string(), code: v.string() }),
 *   complete: { language: (typed) => ['go', 'python', 'typescript'].filter((l) => l.startsWith(typed)) },
 *   get: ({ language, code }) => `Review this ${language} code:\n${code}`,
 * });
 * const server = mcpServer({ name: 'prompts', version: '1.0.0', tools: [], prompts: [review] });
 * console.log(server.name);
 * ```
 */
export function prompt<Args extends Record<string, string> = Record<string, string>>(
  options: PromptOptions<Args>,
): McpServedPrompt {
  if (typeof options?.name !== 'string' || options.name === '') {
    throw new TypeError(
      `prompt: name: expected a non-empty string, received ${describeValue(options?.name)}`,
    );
  }
  if (typeof options.get !== 'function') {
    throw new TypeError(`prompt: get: expected a function, received ${describeValue(options.get)}`);
  }
  const definition: McpPrompt = { name: options.name };
  if (options.title !== undefined) definition.title = options.title;
  if (options.description !== undefined) definition.description = options.description;
  let validator: CompiledValidator<unknown> | undefined;
  let names: string[] = [];
  if (options.arguments !== undefined) {
    const schema = normalizeSchema(options.arguments);
    const properties = (schema.properties ?? {}) as Record<
      string,
      { type?: unknown; description?: unknown }
    >;
    if (schema.type !== 'object') {
      throw new TypeError(
        `prompt "${options.name}": arguments: expected an object schema, e.g. v.object({ topic: v.string() })`,
      );
    }
    names = Object.keys(properties);
    for (const name of names) {
      if (properties[name]?.type !== 'string') {
        throw new TypeError(
          `prompt "${options.name}": arguments.${name}: expected a string property (MCP prompt arguments are strings), received ${describeValue(properties[name])}`,
        );
      }
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    definition.arguments = names.map((name) => {
      const argument: { name: string; description?: string; required?: boolean } = { name };
      const description = properties[name]?.description;
      if (typeof description === 'string') argument.description = description;
      if (required.has(name)) argument.required = true;
      return argument;
    });
    validator = compile(options.arguments);
  }
  checkCompleters(`prompt "${options.name}"`, options.complete, names);
  return {
    ...(options as unknown as PromptOptions),
    definition,
    validator,
    [PROMPT_BRAND]: true,
  };
}

/** Whether `value` was made by {@link prompt}. */
export function isPrompt(value: unknown): value is McpServedPrompt {
  return typeof value === 'object' && value !== null && PROMPT_BRAND in value;
}

/**
 * Answers `prompts/get`: the arguments checked (an `InvalidParams` error with fino's
 * field-by-field message), `get` called, its messages mapped to MCP content.
 */
export async function getPrompt(
  served: McpServedPrompt,
  args: Record<string, string> | undefined,
  ctx: PromptContext,
): Promise<GetPromptResult> {
  const given = args ?? {};
  for (const [name, value] of Object.entries(given)) {
    if (typeof value === 'string' && value.length > MAX_ARGUMENT_CHARS) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt "${served.name}": argument "${name}" is ${value.length} characters long; at most ${MAX_ARGUMENT_CHARS} are accepted.`,
      );
    }
  }
  if (served.validator !== undefined) {
    const checked = served.validator.safeParse(given);
    if (!checked.success) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt "${served.name}" got invalid arguments:\n${formatIssues(checked.issues)}`,
      );
    }
  }
  const returned = await served.get(given, ctx);
  const messages =
    typeof returned === 'string' ? [{ role: 'user' as const, content: returned }] : returned;
  if (!Array.isArray(messages)) {
    throw new Error(
      `prompt "${served.name}": get returned ${describeValue(returned)}; expected a string or an array of { role, content }`,
    );
  }
  const result: GetPromptResult = {
    messages: messages.map((m, i) => promptMessage(served.name, m, i)),
  };
  if (served.description !== undefined) result.description = served.description;
  return result;
}

function promptMessage(name: string, message: PromptMessageInput, index: number): PromptMessage {
  if (message?.role !== 'user' && message?.role !== 'assistant') {
    throw new Error(
      `prompt "${name}": messages[${index}].role: expected 'user' or 'assistant', received ${describeValue(message?.role)}`,
    );
  }
  const part: ContentPart =
    typeof message.content === 'string' ? { type: 'text', text: message.content } : message.content;
  return { role: message.role, content: toMcpContent(part) as PromptMessage['content'] };
}
