/**
 * A UI message's reasoning part as fino's reasoning part (decision 249): the provider
 * metadata `ai` puts on it read back into the fields fino's providers send back —
 * Anthropic's `{ anthropic: { signature } }` and `{ anthropic: { redactedData } }` as
 * `signature` and `redacted`, anything else (OpenAI's `{ openai: { item } }`) kept
 * under `providerMetadata` — with `provider` the metadata's provider.
 */
import type { ContentPart } from '../../task/index.ts';
import type { UIProviderMetadata } from './types.ts';

type ReasoningPart = Extract<ContentPart, { type: 'reasoning' }>;

/** The provider whose metadata signs the reasoning, else the only one it has. */
function providerOf(metadata: UIProviderMetadata): string | undefined {
  const names = Object.keys(metadata);
  const signer = names.find(
    (name) => metadata[name].signature !== undefined || metadata[name].redactedData !== undefined,
  );
  return signer ?? (names.length === 1 ? names[0] : undefined);
}

/** fino's reasoning part for a UI reasoning part's text and provider metadata. */
export function reasoningPartOf(text: string, metadata?: UIProviderMetadata): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', text };
  const rest: Record<string, unknown> = { ...metadata };
  const provider = metadata ? providerOf(metadata) : undefined;
  if (provider !== undefined) {
    part.provider = provider;
    const own = { ...metadata![provider] };
    if (typeof own.signature === 'string') {
      part.signature = own.signature;
      delete own.signature;
    }
    if (typeof own.redactedData === 'string') {
      part.redacted = own.redactedData;
      delete own.redactedData;
    }
    if (Object.keys(own).length > 0) rest[provider] = own;
    else delete rest[provider];
  }
  if (Object.keys(rest).length > 0) part.providerMetadata = rest;
  return part;
}
