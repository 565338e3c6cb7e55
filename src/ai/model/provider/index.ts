/**
 * `ai/model/provider`: what every HTTP provider adapter shares above the wire — the
 * skeleton `providerModel` (options, limits, transport, generate, stream and token count
 * wired once), the checks of a provider's options and of a request, the API key lookup,
 * the merge of `request.providerOptions`, and the message-part helpers the providers'
 * message translators share. A new provider is a room beside `openai/` whose options
 * extend `ProviderOptions` and that supplies a `ProviderDescriptor` and a `ProviderWiring`
 * to `providerModel`.
 *
 * May import: `../core/`, `../wire/`, `../usage/` and `src/internal/`; never a provider room.
 */
export { checkRequest, checkRequestFields } from './check-request.ts';
export {
  decodeBase64Text,
  dropped,
  partsOf,
  partsToSend,
  resourceMedia,
  textOf,
  warnUnsentProviderTools,
} from './message-parts.ts';
export { apiKey, baseURLOf, checkProviderOptions } from './provider-config.ts';
export {
  type ProviderDescriptor,
  type ProviderOptions,
  type ProviderWiring,
  providerModel,
} from './provider-model.ts';
export { mergeProviderOptions } from './provider-options.ts';
