/**
 * The chat page: React 19 with `useChat` from `@ai-sdk/react` and `DefaultChatTransport`
 * from `ai`, talking to fino's chatHandler at `/api/chat`. No protocol code: sending,
 * streaming, resuming after a reload and answering approvals are the AI SDK's own.
 * The chat id lives in the address (`?chat=…`), so a reload finds the same conversation:
 * its messages from `GET /api/chat/<id>/messages`, a run still going from
 * `GET /api/chat/<id>/stream` (`resume: true`).
 */

import type { FinoDataTypes, FinoMessageMetadata } from 'fino:ai/ui';
import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  generateId,
  getToolName,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { type FormEvent, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

type ChatMessage = UIMessage<FinoMessageMetadata, FinoDataTypes>;
type Part = ChatMessage['parts'][number];
type Decide = (approvalId: string, approved: boolean) => void;

/** The thread holds the conversation: send only the newest message. */
const transport = new DefaultChatTransport<ChatMessage>({
  api: '/api/chat',
  prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
});

/** The chat id of the address, made (and put in the address) on the first visit. */
function chatIdOfAddress(): string {
  const url = new URL(window.location.href);
  const known = url.searchParams.get('chat');
  if (known) return known;
  const id = generateId();
  url.searchParams.set('chat', id);
  window.history.replaceState(null, '', url);
  return id;
}

const json = (value: unknown) => JSON.stringify(value, null, 1);

/** A tool call: its input, the approval it waits for, its output. */
function ToolCall({ part, decide }: { part: Part; decide: Decide }) {
  if (!isToolUIPart(part)) return null;
  const name = getToolName(part);
  return (
    <section className="tool" aria-label={`Tool call ${name}`}>
      <strong>{name}</strong> <code>{json(part.input)}</code>
      {part.state === 'approval-requested' && (
        <p>
          <span>{name} needs your approval. </span>
          <button type="button" onClick={() => decide(part.approval.id, true)}>
            Approve
          </button>{' '}
          <button type="button" onClick={() => decide(part.approval.id, false)}>
            Deny
          </button>
        </p>
      )}
      {part.state === 'approval-responded' && (
        <p className="notice">{part.approval.approved ? 'Approved' : 'Denied'}, sending…</p>
      )}
      {part.state === 'output-available' && (
        <figure aria-label={`Output of ${name}`}>
          <pre>{typeof part.output === 'string' ? part.output : json(part.output)}</pre>
        </figure>
      )}
      {part.state === 'output-error' && <p className="error">Failed: {part.errorText}</p>}
      {part.state === 'output-denied' && <p className="notice">Denied.</p>}
    </section>
  );
}

/** One part of a message; fino's data parts as notices. */
function MessagePart({ part, decide }: { part: Part; decide: Decide }) {
  switch (part.type) {
    case 'text':
      return <p className="text">{part.text}</p>;
    case 'reasoning':
      return (
        <details>
          <summary>Reasoning</summary>
          {part.text}
        </details>
      );
    case 'data-fino-error':
      return (
        <p role="alert" className="error">
          {part.data.code}: {part.data.message}
        </p>
      );
    case 'data-fino-suspended':
      return (
        <p className="notice">
          {part.data.toolName} is waiting for an answer
          {part.data.reason ? `: ${part.data.reason}` : ''}
        </p>
      );
    case 'data-fino-handoff':
      return <p className="notice">Handed over to {part.data.to}</p>;
    case 'data-fino-guardrail':
      return part.data.tripped ? <p className="notice">Stopped by {part.data.name}</p> : null;
    default:
      return <ToolCall part={part} decide={decide} />;
  }
}

function Chat({ id, initialMessages }: { id: string; initialMessages: ChatMessage[] }) {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat<ChatMessage>({
    id,
    messages: initialMessages,
    resume: true,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const idle = status === 'ready' || status === 'error';
  const decide: Decide = (approvalId, approved) =>
    void addToolApprovalResponse({ id: approvalId, approved });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim() || !idle) return;
    void sendMessage({ text: input });
    setInput('');
  };
  return (
    <main>
      <h1>fino chat</h1>
      <ol aria-label="Conversation">
        {messages.map((message) => (
          <li
            key={message.id}
            className={`message ${message.role}`}
            aria-label={message.role === 'user' ? 'You' : 'Assistant'}
          >
            <span className="role">{message.role === 'user' ? 'You' : 'Assistant'}</span>
            {message.parts.map((part, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts only grow
              <MessagePart key={i} part={part} decide={decide} />
            ))}
            {message.metadata?.fino.usage && (
              <small className="usage">{message.metadata.fino.usage.totalTokens} tokens</small>
            )}
          </li>
        ))}
      </ol>
      <p role="status">Status: {status}</p>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <input
          aria-label="Message"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Ask something, or ask for a refund of order o-17"
        />
        <button type="submit" disabled={!idle}>
          Send
        </button>
      </form>
    </main>
  );
}

/** Loads the conversation of the address, then shows it. */
function App() {
  const [id] = useState(chatIdOfAddress);
  const [loaded, setLoaded] = useState<ChatMessage[] | Error>();
  useEffect(() => {
    fetch(`/api/chat/${encodeURIComponent(id)}/messages`)
      .then((response) =>
        response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`)),
      )
      .then(setLoaded, (reason: unknown) => setLoaded(new Error(String(reason))));
  }, [id]);
  if (loaded === undefined) return <p role="status">Loading the conversation…</p>;
  if (loaded instanceof Error) {
    return <p role="alert">Could not load the conversation: {loaded.message}</p>;
  }
  return <Chat id={id} initialMessages={loaded} />;
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
