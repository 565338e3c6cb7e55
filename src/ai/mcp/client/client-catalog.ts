/**
 * What `mcpClient()` offers besides tools: a server's resources, templates, prompts and
 * completions, resource subscriptions and log messages; and the answers to a server's
 * sampling and elicitation requests (elicitation defaults filled in from the form).
 * Decision 122.
 */
import type {
  Client,
  CompleteRequest,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  LoggingMessageNotification,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client';
import type { ContentPart, ModelMessage } from '../../../task/index.ts';
import { fromMcpContent } from '../protocol/index.ts';
import type { LoggingClient } from './log-level.ts';
import type { ResourceFollows } from './resource-follows.ts';

/** A server's log message (`notifications/message`). */
export type ServerLogMessage = LoggingMessageNotification['params'];

/** Answers a server's `sampling/createMessage`, e.g. with a fino `Model`. */
export type SampleHandler = (
  request: CreateMessageRequest['params'],
) => Promise<CreateMessageResult> | CreateMessageResult;

/** A client's listing of a server's resources. */
export interface RemoteResources {
  resources: Resource[];
  templates: ResourceTemplate[];
}

/** The resource, prompt and completion calls of {@link McpToolClient}. */
export interface McpCatalogClient {
  /** The server's resources and resource templates (every page). */
  resources(): Promise<RemoteResources>;
  /** Reads one resource. */
  readResource(uri: string): Promise<ReadResourceResult>;
  /** A resource's contents as content parts, e.g. to give an agent as context. */
  resourceParts(uri: string): Promise<ContentPart[]>;
  /** The server's prompts (every page). */
  prompts(): Promise<Awaited<ReturnType<Client['listPrompts']>>['prompts']>;
  /** Fills one prompt in. */
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
  /** A filled-in prompt as fino messages, ready for an agent's `messages`. */
  promptMessages(name: string, args?: Record<string, string>): Promise<ModelMessage[]>;
  /** Suggestions for a prompt argument or a template variable. */
  complete(
    ref: CompleteRequest['params']['ref'],
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<string[]>;
  /**
   * Follows a resource: `listener` hears each `notifications/resources/updated` for it
   * (`resources/subscribe` on 2025 revisions, a `subscriptions/listen` stream on
   * 2026-07-28). Returns an unsubscribe function.
   */
  subscribe(uri: string, listener: (uri: string) => void): Promise<() => Promise<void>>;
  /**
   * Asks the server for log messages at `level` and above (`logging/setLevel` on 2025
   * revisions, the level on each request on 2026-07-28).
   */
  setLogLevel(level: ServerLogMessage['level']): Promise<void>;
}

/** The most pages one listing follows. */
const MAX_PAGES = 100;

/** The resource, prompt and completion calls over `sdk`, connecting first. */
export function catalogClient(
  sdk: LoggingClient,
  connect: () => Promise<void>,
  follows: ResourceFollows,
): McpCatalogClient {
  const pages = async <T>(
    list: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
  ) => {
    await connect();
    const all: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { items, nextCursor } = await list(cursor);
      all.push(...items);
      if (nextCursor === undefined) break;
      cursor = nextCursor;
    }
    return all;
  };
  const capabilities = () => sdk.getServerCapabilities() ?? {};
  return {
    async resources() {
      const resources = await pages(async (cursor) => {
        const r = await sdk.listResources(cursor ? { cursor } : undefined);
        return { items: r.resources, nextCursor: r.nextCursor };
      });
      const templates = await pages(async (cursor) => {
        const r = await sdk.listResourceTemplates(cursor ? { cursor } : undefined);
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      });
      return { resources, templates };
    },
    async readResource(uri) {
      await connect();
      return sdk.readResource({ uri });
    },
    async resourceParts(uri) {
      await connect();
      const { contents } = await sdk.readResource({ uri });
      return contents.map((resource) => fromMcpContent({ type: 'resource', resource }));
    },
    async prompts() {
      if (capabilities().prompts === undefined) {
        await connect();
        if (capabilities().prompts === undefined) return [];
      }
      return pages(async (cursor) => {
        const r = await sdk.listPrompts(cursor ? { cursor } : undefined);
        return { items: r.prompts, nextCursor: r.nextCursor };
      });
    },
    async getPrompt(name, args) {
      await connect();
      return sdk.getPrompt({ name, arguments: args });
    },
    async promptMessages(name, args) {
      await connect();
      const { messages } = await sdk.getPrompt({ name, arguments: args });
      return messages.map((m) => ({ role: m.role, content: [fromMcpContent(m.content)] }));
    },
    async complete(ref, argument, context) {
      await connect();
      const { completion } = await sdk.complete({
        ref,
        argument,
        ...(context ? { context: { arguments: context } } : {}),
      });
      return completion.values;
    },
    async subscribe(uri, listener) {
      await connect();
      return follows.follow(uri, listener);
    },
    async setLogLevel(level) {
      await connect();
      await sdk.askLogLevel(level);
    },
  };
}

/**
 * An elicitation answer with the form's defaults filled in for fields the answer left
 * out (MCP SEP-1034); other answers pass unchanged.
 */
export function withDefaults(request: ElicitRequest['params'], result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || !('requestedSchema' in request)) return result;
  const properties = (request.requestedSchema?.properties ?? {}) as Record<
    string,
    { default?: unknown }
  >;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [name, field] of Object.entries(properties)) {
    if (content[name] === undefined && field?.default !== undefined) content[name] = field.default;
  }
  return { ...result, content: content as ElicitResult['content'] };
}
