/**
 * A provider adapter's own configuration: the model it calls and the API key it sends.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import { ModelError } from '../core/index.ts';

/**
 * Names a caller may put on a provider's options that belong on each request instead,
 * with where they go: the suggestion of the refusal (decision 108).
 */
const REQUEST_OPTION_HINTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    ['temperature', 'maxTokens', 'toolChoice', 'output', 'providerOptions', 'system', 'tools'].map(
      (name) => [name, `the request option ${name} (generate({ ${name} }) or agent({ ${name} }))`],
    ),
  ),
  reasoning: 'the request option reasoning (generate({ reasoning }) or agent({ reasoning }))',
  thinking:
    '"reasoning", a request option (generate({ reasoning: { budgetTokens } }) or agent({ reasoning }))',
  thinkingConfig:
    '"reasoning", a request option (generate({ reasoning: { budgetTokens } }) or agent({ reasoning }))',
};

/**
 * Refuses a key of a provider's `options` it does not know, with a `ModelError` whose
 * `code` is `INVALID_ARGUMENT`, naming the key and the closest known name; `hints` adds
 * the provider's own suggestions. What fino does not model goes in a request's
 * `providerOptions`.
 */
export function checkProviderOptions<T extends object>(
  provider: string,
  options: T | undefined,
  known: Readonly<Record<keyof T, true>>,
  hints: Readonly<Record<string, string>> = {},
): void {
  if (typeof options !== 'object' || options === null) return;
  const message = unknownKeyMessage(`${provider}(options)`, options, Object.keys(known), {
    ...REQUEST_OPTION_HINTS,
    ...hints,
  });
  if (message) throw new ModelError(message, { provider, code: 'INVALID_ARGUMENT' });
}

/** Throws a `TypeError` unless a provider's options name a model. */
export function requireModelName(provider: string, options: { model?: unknown } | undefined): void {
  if (typeof options?.model !== 'string' || options.model === '') {
    throw new TypeError(
      `${provider}(options).model: expected a non-empty model name, received ${describeValue(options?.model)}`,
    );
  }
}

/** The base URL given, else the provider's default, without trailing slashes. */
export function baseURLOf(given: string | undefined, fallback: string): string {
  return (given ?? fallback).replace(/\/+$/, '');
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
