/**
 * A page of a session thread as the UI messages `useChat` shows after a reload
 * (decision 249): one user message per user turn, one assistant message per run, built
 * by the conventions of the live stream so that both show the same (transient parts and
 * provider metadata aside: the thread keeps those on the server).
 */
import type { ContentPart, ModelMessage, ToolResultPart } from '../../task/index.ts';
import type { ThreadPage } from '../session/index.ts';
import { approvalIdOf } from './approval-id.ts';
import { uiToolErrorText, uiToolOutput } from './tool-output.ts';
import { rejectionReason } from './tool-rejection.ts';
import type { UIMessage, UIMessagePart, UIToolPart } from './types.ts';

/**
 * The UI messages of a thread page, oldest first: a user turn as a user message with id
 * `${threadId}:${position}`; each run's assistant turns as one assistant message with id
 * = the run's id, a `step-start` part per turn, then its reasoning and text parts (state
 * `done`) and `tool-<name>` parts in their final state — `output-available` with
 * `uiToolOutput(result)`, `output-error` with the result's text, `output-denied` (with
 * the approval's id and reason) for a rejected call. A call the page has no result for
 * on this page stays `input-available`. A run still going (`page.activeRunId`) adds its
 * messages to the thread when it finishes: the page shows it by resuming its stream.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { memoryStore, session } from 'fino:ai/session';
 * import { threadUIMessages } from 'fino:ai/ui';
 *
 * const runs = session({ store: memoryStore(), agent: agent({ model: scriptedModel(['Hello!']) }) });
 * await runs.start('Hi', { threadId: 'chat-1' });
 * const page = await runs.thread('chat-1');
 * console.log(threadUIMessages(page!).map((m) => m.role)); // ['user', 'assistant']
 * ```
 */
export function threadUIMessages(page: ThreadPage): UIMessage[] {
  const messages: UIMessage[] = [];
  let assistant: UIMessage | undefined;
  for (const { position, runId, message } of page.messages) {
    const parts = typeof message.content === 'string' ? [textOf(message.content)] : message.content;
    if (message.role === 'assistant') {
      const id = runId ?? `${page.threadId}:${position}`;
      if (assistant?.id !== id) {
        assistant = { id, role: 'assistant', parts: [] };
        messages.push(assistant);
      }
      assistant.parts.push({ type: 'step-start' }, ...parts.flatMap(assistantPart));
      settle(assistant, parts);
      continue;
    }
    const shown = parts.flatMap(userPart);
    if (assistant && shown.length < parts.length) settle(assistant, parts);
    if (shown.length > 0 || !parts.some((part) => part.type === 'tool_result')) {
      assistant = undefined;
      messages.push({ id: `${page.threadId}:${position}`, role: roleOf(message), parts: shown });
    }
  }
  return messages;
}

const textOf = (text: string): ContentPart => ({ type: 'text', text });
const roleOf = (message: ModelMessage): UIMessage['role'] =>
  message.role === 'system' ? 'system' : 'user';

/** An assistant turn's part as a UI part: reasoning, text, a tool call (its result comes later). */
function assistantPart(part: ContentPart): UIMessagePart[] {
  switch (part.type) {
    case 'reasoning':
      return part.text === '' ? [] : [{ type: 'reasoning', text: part.text, state: 'done' }];
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text, state: 'done' }];
    case 'tool_use':
      return [
        {
          type: `tool-${part.name}`,
          toolCallId: part.id,
          state: 'input-available',
          input: part.args,
        },
      ];
    default:
      return [];
  }
}

/** A user turn's part as a UI part: text, a file as a `data:` URL; results are not shown here. */
function userPart(part: ContentPart): UIMessagePart[] {
  switch (part.type) {
    case 'text':
      return [{ type: 'text', text: part.text }];
    case 'image':
    case 'audio':
      return [{ type: 'file', mediaType: part.mediaType, url: dataUrl(part.mediaType, part.data) }];
    case 'document': {
      const file: UIMessagePart = {
        type: 'file',
        mediaType: part.mediaType,
        url: dataUrl(part.mediaType, part.data),
      };
      return [part.name === undefined ? file : { ...file, filename: part.name }];
    }
    case 'resource':
      return part.text !== undefined ? [{ type: 'text', text: part.text }] : [];
    default:
      return [];
  }
}

const dataUrl = (mediaType: string, data: string) => `data:${mediaType};base64,${data}`;

/** The tool parts of `assistant` that `parts`' results answer, in their final state. */
function settle(assistant: UIMessage, parts: ContentPart[]): void {
  for (const result of parts) {
    if (result.type !== 'tool_result') continue;
    const part = assistant.parts.find(
      (p): p is UIToolPart => 'toolCallId' in p && p.toolCallId === result.toolCallId,
    );
    if (part) Object.assign(part, finalState(assistant.id, part, result));
  }
}

/** The fields a tool part takes for its result. */
function finalState(runId: string, part: UIToolPart, result: ToolResultPart): Partial<UIToolPart> {
  if (!result.isError) return { state: 'output-available', output: uiToolOutput(result) };
  const text = uiToolErrorText(result);
  const reason = rejectionReason(part.type.slice('tool-'.length), text);
  if (reason === undefined) return { state: 'output-error', errorText: text };
  const id = approvalIdOf(runId, part.toolCallId);
  return { state: 'output-denied', approval: { id, approved: false, reason } };
}
