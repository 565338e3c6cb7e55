/**
 * `request.providerOptions[provider]`: fields a caller adds to one provider's request body.
 */
import type { GenerateRequest } from '../core/index.ts';

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
