/**
 * A provider adapter's own configuration: the model it calls and the API key it sends.
 */
import { describeValue } from '../../internal/describe-value.ts';
import { ModelError } from './model-error.ts';

/** Throws a `TypeError` unless a provider's options name a model. */
export function requireModelName(provider: string, options: { model?: unknown } | undefined): void {
  if (typeof options?.model !== 'string' || options.model === '') {
    throw new TypeError(
      `${provider}(options).model: expected a non-empty model name, received ${describeValue(options?.model)}`,
    );
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
