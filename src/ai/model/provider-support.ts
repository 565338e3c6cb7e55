import { abortError } from './abort.ts';
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
    throw new TypeError(`${provider}(options): options.model must be a non-empty model name`);
  }
}

/** Throws a `TypeError` naming the first malformed field of a request. */
export function checkRequest(provider: string, request: GenerateRequest): void {
  const fail: (what: string, expected: string, value: unknown) => never = (
    what,
    expected,
    value,
  ) => {
    const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    throw new TypeError(`${provider}: ${what}: expected ${expected}, received ${received}`);
  };
  if (typeof request !== 'object' || request === null) fail('request', 'an object', request);
  if (!Array.isArray(request.messages)) fail('request.messages', 'an array', request.messages);
  request.messages.forEach((message: ModelMessage, i) => {
    if (typeof message !== 'object' || message === null) {
      fail(`messages[${i}]`, 'an object', message);
    }
    if (!ROLES.has(message.role)) {
      throw new TypeError(
        `${provider}: messages[${i}].role: expected 'system', 'user' or 'assistant', received ${JSON.stringify(message.role)}`,
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
