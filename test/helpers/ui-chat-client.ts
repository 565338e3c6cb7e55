/**
 * `ai`'s own chat client (`AbstractChat` with `DefaultChatTransport`), the code behind
 * `useChat`, in Node with its state in memory: tests drive a chat handler as a page does.
 */
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';

/** A chat's state as plain fields (what React keeps in `useChat`). */
class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[];
  constructor(messages: UIMessage[]) {
    this.messages = messages;
  }
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((old, i) => (i === index ? message : old));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A chat client as a page makes it; `handler` answers its requests in place of a server. */
export class TestChat extends AbstractChat<UIMessage> {
  readonly errors: Error[] = [];
  constructor(options: {
    id: string;
    handler: (request: Request) => Promise<Response>;
    messages?: UIMessage[];
    api?: string;
    /** Send the whole conversation (default: only the newest message, the thread has the rest). */
    wholeConversation?: boolean;
  }) {
    const errors: Error[] = [];
    super({
      id: options.id,
      state: new MemoryChatState(options.messages ?? []),
      transport: new DefaultChatTransport({
        api: options.api ?? 'http://fino.test/api/chat',
        fetch: (input, init) => options.handler(new Request(input as string, init)),
        ...(!options.wholeConversation && {
          prepareSendMessagesRequest: ({ id, messages }) => ({
            body: { id, message: messages.at(-1) },
          }),
        }),
      }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      onError: (error) => errors.push(error),
    });
    this.errors = errors;
  }
}
