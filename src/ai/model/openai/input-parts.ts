/**
 * What OpenAI's two APIs send for a content part of a user message or a tool result,
 * decided once: a text document goes as its text, another document as a file (named
 * `document.<subtype>` when it has no name), wav and mp3 audio as audio, a resource as
 * its text or as the image or document its data is. Each API writes the answer in its own
 * shape (`chat-messages.ts`, `responses-input.ts`).
 */
import type { ContentPart, ModelWarning } from '../core/index.ts';
import { decodeBase64Text, dropped, resourceMedia } from '../provider/index.ts';

/** A content part as OpenAI takes it: text, an image or a file as a `data:` URL, or audio. */
export type OpenAIInput =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string }
  | { type: 'file'; filename: string; url: string }
  | { type: 'audio'; data: string; format: string };

/** The audio formats OpenAI's inputs take (`input_audio`), by media type. */
const AUDIO_FORMATS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/**
 * What to send for a part of `messages[i]`, or `undefined` when it cannot be sent (a
 * warning then says why).
 */
export function openaiInput(
  part: ContentPart,
  i: number,
  warnings: ModelWarning[],
): OpenAIInput | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', url: dataUrl(part.mediaType, part.data) };
    case 'document':
      if (part.mediaType.startsWith('text/')) {
        return { type: 'text', text: decodeBase64Text(part.data) };
      }
      return {
        type: 'file',
        filename: part.name ?? `document.${part.mediaType.split('/')[1] ?? 'bin'}`,
        url: dataUrl(part.mediaType, part.data),
      };
    case 'audio': {
      const format = AUDIO_FORMATS[part.mediaType];
      if (format) return { type: 'audio', data: part.data, format };
      warnings.push(dropped(part, i, `audio must be wav or mp3, not ${part.mediaType}`));
      return undefined;
    }
    case 'resource': {
      if (part.text !== undefined) return { type: 'text', text: part.text };
      const media = resourceMedia(part);
      if (media) return openaiInput(media, i, warnings);
      warnings.push(dropped(part, i, 'a resource needs text, or data with a media type'));
      return undefined;
    }
    default:
      warnings.push(dropped(part, i, 'user messages cannot carry it'));
      return undefined;
  }
}

/** A base64 payload as a `data:` URL. */
function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
