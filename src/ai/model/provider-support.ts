import { abortError } from '../../internal/abort-error.ts';
import { describe } from '../../internal/describe.ts';
import { TOOL_NAME_RULE } from '../../internal/tool-name.ts';
import { ModelError } from './model-error.ts';
import type {
  ContentPart,
  GenerateRequest,
  ModelMessage,
  ModelWarning,
  StreamEvent,
} from './types.ts';

const ROLES = new Set(['system', 'user', 'assistant']);

/** Throws a `TypeError` unless a provider's options name a model. */
export function requireModelName(provider: string, options: { model?: unknown } | undefined): void {
  if (typeof options?.model !== 'string' || options.model === '') {
    throw new TypeError(
      `${provider}(options).model: expected a non-empty model name, received ${describe(options?.model)}`,
    );
  }
}

/** Throws a `TypeError` naming the first malformed field of a request. */
export function checkRequest(provider: string, request: GenerateRequest): void {
  const fail: (what: string, expected: string, value: unknown) => never = (
    what,
    expected,
    value,
  ) => {
    throw new TypeError(`${provider}: ${what}: expected ${expected}, received ${describe(value)}`);
  };
  if (typeof request !== 'object' || request === null) fail('request', 'an object', request);
  if (!Array.isArray(request.messages)) fail('request.messages', 'an array', request.messages);
  request.messages.forEach((message: ModelMessage, i) => {
    if (typeof message !== 'object' || message === null) {
      fail(`messages[${i}]`, 'an object', message);
    }
    if (!ROLES.has(message.role)) {
      throw new TypeError(
        `${provider}: messages[${i}].role: expected 'system', 'user' or 'assistant', received ${describe(message.role)}`,
      );
    }
    if (typeof message.content === 'string') return;
    if (!Array.isArray(message.content)) {
      fail(`messages[${i}].content`, 'a string or an array of parts', message.content);
    }
    message.content.forEach((part: unknown, j) => {
      if (
        typeof part !== 'object' ||
        part === null ||
        typeof (part as ContentPart).type !== 'string'
      ) {
        fail(`messages[${i}].content[${j}]`, 'a content part with a string type', part);
      }
    });
  });
  checkOptionalFields(provider, request, fail);
  if (request.tools === undefined) return;
  if (!Array.isArray(request.tools)) fail('request.tools', 'an array', request.tools);
  request.tools.forEach((tool, i) => {
    if (
      typeof tool?.name !== 'string' ||
      typeof tool.parameters !== 'object' ||
      tool.parameters === null
    ) {
      fail(`tools[${i}]`, 'a tool definition { name, description, parameters }', tool);
    }
  });
}

function checkOptionalFields(
  provider: string,
  request: GenerateRequest,
  fail: (what: string, expected: string, value: unknown) => never,
): void {
  const { maxTokens, temperature, reasoning, output, providerOptions } = request;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new RangeError(
      `${provider}: request.maxTokens: expected a positive integer, received ${describe(maxTokens)}`,
    );
  }
  if (temperature !== undefined && !(typeof temperature === 'number' && temperature >= 0)) {
    throw new RangeError(
      `${provider}: request.temperature: expected a number ≥ 0, received ${describe(temperature)}`,
    );
  }
  if (reasoning !== undefined) {
    if (typeof reasoning !== 'object' || reasoning === null) {
      fail('request.reasoning', 'an object { effort?, budgetTokens? }', reasoning);
    }
    if (reasoning.effort !== undefined && !EFFORTS.has(reasoning.effort)) {
      throw new TypeError(
        `${provider}: request.reasoning.effort: expected 'low', 'medium' or 'high', received ${describe(reasoning.effort)}`,
      );
    }
    const budget = reasoning.budgetTokens;
    if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) {
      throw new RangeError(
        `${provider}: request.reasoning.budgetTokens: expected a positive integer, received ${describe(budget)}`,
      );
    }
  }
  if (output !== undefined) {
    if (typeof output !== 'object' || output === null) {
      fail('request.output', 'an object { schema, name? }', output);
    }
    if (typeof output.schema !== 'object' || output.schema === null) {
      fail('request.output.schema', 'a JSON Schema object', output.schema);
    }
    if (output.name !== undefined && !TOOL_NAME_RULE.test(output.name)) {
      throw new TypeError(
        `${provider}: request.output.name: expected a name matching ${TOOL_NAME_RULE}, received ${describe(output.name)}`,
      );
    }
  }
  if (providerOptions !== undefined) {
    if (typeof providerOptions !== 'object' || providerOptions === null) {
      fail('request.providerOptions', 'an object keyed by provider name', providerOptions);
    }
    const own = Object.hasOwn(providerOptions, provider)
      ? (providerOptions as Record<string, unknown>)[provider]
      : undefined;
    if (own !== undefined && (typeof own !== 'object' || own === null || Array.isArray(own))) {
      fail(`request.providerOptions.${provider}`, 'an object of request body fields', own);
    }
  }
}

const EFFORTS = new Set(['low', 'medium', 'high']);

/**
 * Merges a request's `providerOptions[provider]` into the body, last, so its fields win.
 * Only own keys are copied, and `__proto__` never reaches the body's prototype.
 */
export function mergeProviderOptions(
  provider: string,
  body: Record<string, unknown>,
  request: GenerateRequest,
): void {
  const options = request.providerOptions;
  if (!options || !Object.hasOwn(options, provider)) return;
  const own = (options as Record<string, Record<string, unknown> | undefined>)[provider];
  if (!own) return;
  for (const key of Object.keys(own)) {
    Object.defineProperty(body, key, {
      value: own[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

/** The API key given, else the environment variable's; a clear error when required and missing. */
export function apiKey(
  provider: string,
  given: string | undefined,
  envName: string,
  required: boolean,
): string | undefined {
  const key = given ?? process.env[envName];
  if (!key && required) {
    throw new ModelError(
      `${provider}: no API key: pass { apiKey } or set the ${envName} environment variable`,
      { provider },
    );
  }
  return key || undefined;
}

/** A message's parts, a plain string being one text part. */
export function partsOf(message: ModelMessage): ContentPart[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

/** Text of a tool result's content: strings and text parts joined, other parts ignored. */
export function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      part.type === 'text' ? part.text : part.type === 'resource' ? (part.text ?? '') : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** Decodes a base64 text document. */
export function decodeBase64Text(data: string): string {
  return Buffer.from(data, 'base64').toString('utf8');
}

/**
 * Runs a provider's event producer so the stream never throws: any failure, abort
 * included, ends it with one `error` event.
 */
export async function* guardedStream(
  signal: AbortSignal | undefined,
  produce: () => AsyncGenerator<StreamEvent>,
): AsyncGenerator<StreamEvent> {
  try {
    yield* produce();
  } catch (error) {
    const failure =
      signal?.aborted === true
        ? abortError(signal)
        : error instanceof Error
          ? error
          : new Error(String(error));
    yield { type: 'error', error: failure };
  }
}

/** A warning for a part of `messages[i]` that could not be sent. */
export function dropped(part: ContentPart, i: number, why: string): ModelWarning {
  return { message: `messages[${i}]: ${part.type} part not sent: ${why}` };
}
