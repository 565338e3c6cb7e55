/**
 * Reading a message's content parts while translating it to a provider's wire format,
 * and the warning for a part a provider cannot carry.
 */
import type { ContentPart, GenerateRequest, ModelMessage, ModelWarning } from '../core/index.ts';

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

type ResourcePart = Extract<ContentPart, { type: 'resource' }>;

/**
 * The image or document a resource's data stands for: an image for an `image/*` media
 * type, else a document named by the resource's URI; `undefined` without data or a media
 * type (its text, when it has some, is the caller's to send).
 */
export function resourceMedia(
  part: ResourcePart,
): Extract<ContentPart, { type: 'image' | 'document' }> | undefined {
  if (part.data === undefined || !part.mediaType) return undefined;
  return part.mediaType.startsWith('image/')
    ? { type: 'image', mediaType: part.mediaType, data: part.data }
    : { type: 'document', mediaType: part.mediaType, data: part.data, name: part.uri };
}

/** A warning for a part of `messages[i]` that could not be sent. */
export function dropped(part: ContentPart, i: number, why: string): ModelWarning {
  return { message: `messages[${i}]: ${part.type} part not sent: ${why}` };
}

/**
 * A message's parts that `provider` sends back: all but the calls another provider ran
 * itself and their results (`''` for an API that sends back no such pair at all).
 */
export function partsToSend(message: ModelMessage, provider: string): ContentPart[] {
  return partsOf(message).filter((part) => !ranByOtherProvider(part, provider));
}

/**
 * Whether a part is a call another provider ran itself, or its result (`provider` set on
 * a `tool_use` or `tool_result`): only that provider sends such a pair back.
 */
function ranByOtherProvider(part: ContentPart, provider: string): boolean {
  return (
    (part.type === 'tool_use' || part.type === 'tool_result') &&
    part.provider !== undefined &&
    part.provider !== provider
  );
}

/**
 * Warns about each of the request's provider tools that `api` cannot send: those of
 * another provider, or all of them when `provider` is undefined (an API without any).
 */
export function warnUnsentProviderTools(
  api: string,
  provider: string | undefined,
  request: GenerateRequest,
  warnings: ModelWarning[],
): void {
  for (const tool of request.providerTools ?? []) {
    if (tool.provider === provider) continue;
    warnings.push({
      tool: tool.name,
      message: `provider tool "${tool.name}" (${tool.provider}) not sent: ${api} cannot run it`,
    });
  }
}
