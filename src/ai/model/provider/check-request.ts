/**
 * The checks every provider adapter makes on a `GenerateRequest` before building its
 * body: each malformed field is named with what was expected and what was received.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import { TOOL_NAME_RULE } from '../../../internal/tool-name.ts';
import {
  type ContentPart,
  type GenerateRequest,
  ModelError,
  type ModelMessage,
  type OutputSpec,
  type ReasoningOptions,
} from '../core/index.ts';

/** Every field of a request, so a misspelt one is refused, not ignored (decision 108). */
const REQUEST_FIELDS: Record<keyof GenerateRequest, true> = {
  messages: true,
  system: true,
  tools: true,
  providerTools: true,
  toolChoice: true,
  maxTokens: true,
  temperature: true,
  reasoning: true,
  output: true,
  providerOptions: true,
  signal: true,
};
const REASONING_FIELDS: Record<keyof ReasoningOptions, true> = { effort: true, budgetTokens: true };
const OUTPUT_FIELDS: Record<keyof OutputSpec, true> = { schema: true, name: true };
const REQUEST_HINTS = {
  thinking: '"reasoning" ({ reasoning: { budgetTokens } })',
  instructions: '"system"',
  abortSignal: '"signal"',
  stream: 'model.stream(request) instead of generate(request)',
};

/**
 * Refuses a field of a request, or of its `reasoning` or `output`, that no provider
 * knows, with a `ModelError` whose `code` is `INVALID_ARGUMENT`, naming the field and the
 * closest known one. What fino does not model goes in `providerOptions`.
 */
export function checkRequestFields(provider: string, request: GenerateRequest): void {
  const refuse = (message: string | undefined) => {
    if (message) throw new ModelError(message, { provider, code: 'INVALID_ARGUMENT' });
  };
  refuse(
    unknownKeyMessage(`${provider}: request`, request, Object.keys(REQUEST_FIELDS), REQUEST_HINTS),
  );
  const { reasoning, output } = request;
  if (typeof reasoning === 'object' && reasoning !== null) {
    refuse(
      unknownKeyMessage(
        `${provider}: request.reasoning`,
        reasoning,
        Object.keys(REASONING_FIELDS),
        {
          budget: '"budgetTokens"',
        },
      ),
    );
  }
  if (typeof output === 'object' && output !== null) {
    refuse(unknownKeyMessage(`${provider}: request.output`, output, Object.keys(OUTPUT_FIELDS)));
  }
}

const ROLES = new Set(['system', 'user', 'assistant']);

/** Throws a `TypeError` naming the first malformed field of a request. */
export function checkRequest(provider: string, request: GenerateRequest): void {
  const fail: (what: string, expected: string, value: unknown) => never = (
    what,
    expected,
    value,
  ) => {
    throw new TypeError(
      `${provider}: ${what}: expected ${expected}, received ${describeValue(value)}`,
    );
  };
  if (typeof request !== 'object' || request === null) fail('request', 'an object', request);
  checkRequestFields(provider, request);
  if (!Array.isArray(request.messages)) fail('request.messages', 'an array', request.messages);
  request.messages.forEach((message: ModelMessage, i) => {
    if (typeof message !== 'object' || message === null) {
      fail(`messages[${i}]`, 'an object', message);
    }
    if (!ROLES.has(message.role)) {
      throw new TypeError(
        `${provider}: messages[${i}].role: expected 'system', 'user' or 'assistant', received ${describeValue(message.role)}`,
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
  if (request.providerTools !== undefined) {
    if (!Array.isArray(request.providerTools)) {
      fail('request.providerTools', 'an array', request.providerTools);
    }
    request.providerTools.forEach((tool, i) => {
      if (
        tool?.type !== 'provider' ||
        typeof tool.provider !== 'string' ||
        typeof tool.name !== 'string' ||
        typeof tool.wire !== 'object' ||
        tool.wire === null
      ) {
        fail(
          `providerTools[${i}]`,
          'a provider tool { type: "provider", provider, name, wire }',
          tool,
        );
      }
    });
  }
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
      `${provider}: request.maxTokens: expected a positive integer, received ${describeValue(maxTokens)}`,
    );
  }
  if (temperature !== undefined && !(typeof temperature === 'number' && temperature >= 0)) {
    throw new RangeError(
      `${provider}: request.temperature: expected a number ≥ 0, received ${describeValue(temperature)}`,
    );
  }
  if (reasoning !== undefined) {
    if (typeof reasoning !== 'object' || reasoning === null) {
      fail('request.reasoning', 'an object { effort?, budgetTokens? }', reasoning);
    }
    if (reasoning.effort !== undefined && !EFFORTS.has(reasoning.effort)) {
      throw new TypeError(
        `${provider}: request.reasoning.effort: expected 'low', 'medium' or 'high', received ${describeValue(reasoning.effort)}`,
      );
    }
    const budget = reasoning.budgetTokens;
    if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) {
      throw new RangeError(
        `${provider}: request.reasoning.budgetTokens: expected a positive integer, received ${describeValue(budget)}`,
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
        `${provider}: request.output.name: expected a name matching ${TOOL_NAME_RULE}, received ${describeValue(output.name)}`,
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
