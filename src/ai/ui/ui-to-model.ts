/**
 * Checked UI messages as fino model messages (decision 249): texts, files from `data:`
 * URLs as image, audio or document parts (an http(s) URL as a `resource` naming it: fino
 * never downloads what a page names), reasoning with its signature and provider metadata,
 * and each step of an assistant message as an assistant turn of `tool_use` parts followed
 * by a user turn of their `tool_result`s. Tool calls still waiting (for input, an approval
 * or a tool's answer) are left out: `pendingToolResponses` reads them.
 */
import type { ContentPart, ModelMessage } from '../../task/index.ts';
import { reasoningPartOf } from './reasoning-part.ts';
import { toolResultContent } from './tool-output.ts';
import { rejectionText } from './tool-rejection.ts';
import type { UIMessage, UIMessagePart, UIToolPart } from './types.ts';

/** The states of a tool part whose call has an outcome the model should read. */
const SETTLED = new Set(['output-available', 'output-error', 'output-denied']);

/**
 * The model messages for `messages` (checked first with `checkUIMessages` or
 * `readChatRequest`). A `system` message becomes a system message of its text; a `user`
 * message a user message of its texts and files (`data-*` parts are the page's, not the
 * model's, and are left out); an `assistant` message one assistant turn per step (split at
 * its `step-start` parts) with its reasoning, texts and settled tool calls, each followed
 * by a user turn of the calls' results — `output-error` and `output-denied` as `isError`
 * results, a denial reading `Tool call "<name>" was rejected: <reason>`. Sources,
 * provider-executed calls and calls still waiting are left out.
 *
 * @example
 * ```ts
 * import { toModelMessages } from 'fino:ai/ui';
 *
 * const messages = toModelMessages([
 *   { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
 *   {
 *     id: 'run-1',
 *     role: 'assistant',
 *     parts: [
 *       { type: 'step-start' },
 *       { type: 'tool-weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Paris' }, output: '21 °C' },
 *       { type: 'step-start' },
 *       { type: 'text', text: 'It is 21 °C.' },
 *     ],
 *   },
 * ]);
 * console.log(messages.map((m) => m.role)); // ['user', 'assistant', 'user', 'assistant']
 * ```
 */
export function toModelMessages(messages: UIMessage[]): ModelMessage[] {
  return messages.flatMap((message): ModelMessage[] => {
    if (message.role === 'assistant') return assistantTurns(message.parts);
    const content = message.parts.flatMap(userContent);
    if (message.role === 'system') {
      return [
        { role: 'system', content: content.map((p) => (p.type === 'text' ? p.text : '')).join('') },
      ];
    }
    return content.length > 0 ? [{ role: 'user', content }] : [];
  });
}

/** A user message's part as model content: its text or file, nothing for the others. */
function userContent(part: UIMessagePart): ContentPart[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
  if (part.type === 'file') return [fileContent(part.url, part.mediaType, part.filename)];
  return [];
}

/** Each step of an assistant message as an assistant turn and, when its calls have results, a user turn of them. */
function assistantTurns(parts: UIMessagePart[]): ModelMessage[] {
  const turns: ModelMessage[] = [];
  let content: ContentPart[] = [];
  let results: ContentPart[] = [];
  const endStep = () => {
    if (content.length > 0) turns.push({ role: 'assistant', content });
    if (results.length > 0) turns.push({ role: 'user', content: results });
    content = [];
    results = [];
  };
  for (const part of parts) {
    if (part.type === 'step-start') endStep();
    else if (part.type === 'text' && part.text !== '') content.push(textContent(part));
    else if (part.type === 'reasoning')
      content.push(reasoningPartOf(part.text, part.providerMetadata));
    else if (part.type === 'file')
      content.push(fileContent(part.url, part.mediaType, part.filename));
    else if (isSettledCall(part)) {
      const name = toolNameOf(part);
      content.push(toolUse(part, name));
      results.push(toolResult(part, name));
    }
  }
  endStep();
  return turns;
}

function textContent(part: Extract<UIMessagePart, { type: 'text' }>): ContentPart {
  return part.providerMetadata
    ? { type: 'text', text: part.text, providerMetadata: part.providerMetadata }
    : { type: 'text', text: part.text };
}

/** A tool part the model should read: settled, and run by fino's side (not by the provider). */
function isSettledCall(part: UIMessagePart): part is UIToolPart {
  return (
    'toolCallId' in part &&
    SETTLED.has(part.state) &&
    (part as UIToolPart).providerExecuted !== true
  );
}

/** The tool's name: after `tool-`, or the `toolName` of a `dynamic-tool` part. */
export const toolNameOf = (part: UIToolPart): string =>
  part.type === 'dynamic-tool' ? (part.toolName ?? '') : part.type.slice('tool-'.length);

function toolUse(part: UIToolPart, name: string): ContentPart {
  const use: ContentPart = { type: 'tool_use', id: part.toolCallId, name, args: part.input ?? {} };
  if (part.callProviderMetadata) use.providerMetadata = part.callProviderMetadata;
  return use;
}

function toolResult(part: UIToolPart, name: string): ContentPart {
  const toolCallId = part.toolCallId;
  if (part.state === 'output-available') {
    return { type: 'tool_result', toolCallId, content: toolResultContent(part.output) };
  }
  const content =
    part.state === 'output-denied'
      ? rejectionText(name, part.approval?.reason)
      : (part.errorText ?? 'The tool call failed.');
  return { type: 'tool_result', toolCallId, content, isError: true };
}

/**
 * A file as model content: a `data:` URL's bytes as an image, audio or document part by
 * its media type; an http(s) URL as a `resource` naming it (never downloaded here).
 */
function fileContent(url: string, mediaType: string, filename: string | undefined): ContentPart {
  const data = dataUrlBase64(url);
  if (data === undefined) return { type: 'resource', uri: url, mediaType };
  if (mediaType.startsWith('image/')) return { type: 'image', mediaType, data };
  if (mediaType.startsWith('audio/')) return { type: 'audio', mediaType, data };
  return filename === undefined
    ? { type: 'document', mediaType, data }
    : { type: 'document', mediaType, data, name: filename };
}

/** The base64 bytes of a `data:` URL (percent-encoded text re-encoded), `undefined` for another URL. */
function dataUrlBase64(url: string): string | undefined {
  const match = /^data:([^,]*),/i.exec(url);
  if (!match) return undefined;
  const payload = url.slice(match[0].length);
  if (/;base64$/i.test(match[1])) return payload;
  let text = payload;
  try {
    text = decodeURIComponent(payload);
  } catch {
    // Not valid percent-encoding: the text as it is.
  }
  return Buffer.from(text, 'utf8').toString('base64');
}
