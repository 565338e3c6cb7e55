/**
 * The resources, resource templates and prompts one `mcpServer()` offers, the request
 * handlers answering for them on each SDK `Server`, and the per-connection resource
 * subscriptions. Decision 121.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import { errorMessage } from '../../../internal/thrown-value.ts';
import { isModernRevision } from '../protocol/index.ts';
import type { CallStateCodec } from './call-state.ts';
import { complete } from './completions.ts';
import { answerPrompt } from './prompt-rounds.ts';
import { isPrompt, type McpServedPrompt } from './prompts.ts';
import {
  type AnyResource,
  isResource,
  isTemplate,
  listedResource,
  listedTemplate,
  MAX_RESOURCE_URI_CHARS,
  type McpResource,
  type McpResourceTemplate,
  matchTemplate,
  type ReadLimits,
  readResult,
} from './resources.ts';
import { mcpLog } from './server-requests.ts';

/** The most resources one connection may subscribe to at once. */
export const MAX_SUBSCRIPTIONS = 1000;

/** The most bytes (UTF-8) the URIs one connection subscribes to may take together: 256 KiB. */
export const MAX_SUBSCRIBED_URI_BYTES = 256 * 1024;

/** One connection's subscriptions and the bytes their URIs take. */
interface Subscriptions {
  uris: Set<string>;
  bytes: number;
}

/** What a catalog is built from: `mcpServer({ resources, prompts })`. */
export interface CatalogOptions {
  resources?: readonly AnyResource[];
  prompts?: readonly McpServedPrompt[];
  limits: ReadLimits;
  /** Seals the state of a prompt that asks its client (2026-07-28). */
  callState: CallStateCodec;
}

/** The resources and prompts a server offers, shared by all its connections. */
export class Catalog {
  readonly #resources = new Map<string, McpResource>();
  readonly #templates = new Map<string, McpResourceTemplate>();
  readonly #prompts = new Map<string, McpServedPrompt>();
  readonly #subscriptions = new Map<Server, Subscriptions>();
  readonly #offersResources: boolean;
  readonly #offersPrompts: boolean;
  readonly #limits: ReadLimits;
  readonly #callState: CallStateCodec;

  constructor(options: CatalogOptions) {
    this.#limits = options.limits;
    this.#callState = options.callState;
    this.#offersResources = options.resources !== undefined;
    this.#offersPrompts = options.prompts !== undefined;
    if (options.resources !== undefined && !Array.isArray(options.resources)) {
      throw new TypeError(
        `mcpServer: resources: expected an array of resource() or resourceTemplate(), received ${describeValue(options.resources)}`,
      );
    }
    if (options.prompts !== undefined && !Array.isArray(options.prompts)) {
      throw new TypeError(
        `mcpServer: prompts: expected an array of prompt(), received ${describeValue(options.prompts)}`,
      );
    }
    for (const [index, r] of (options.resources ?? []).entries())
      this.addResource(r, `mcpServer: resources[${index}]`);
    for (const [index, p] of (options.prompts ?? []).entries())
      this.#addPrompt(p, `mcpServer: prompts[${index}]`);
  }

  /** The capabilities to declare for what this catalog offers. */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = { logging: {} };
    if (this.#offersResources) caps.resources = { subscribe: true, listChanged: true };
    if (this.#offersPrompts) caps.prompts = { listChanged: true };
    if (this.#offersResources || this.#offersPrompts) caps.completions = {};
    return caps;
  }

  get resources(): AnyResource[] {
    return [...this.#resources.values(), ...this.#templates.values()];
  }

  get prompts(): McpServedPrompt[] {
    return [...this.#prompts.values()];
  }

  /** Adds one resource or template; throws for a duplicate or a value of another kind. */
  addResource(value: AnyResource, where = 'mcpServer.addResource'): void {
    if (!isResource(value)) {
      throw new TypeError(
        `${where}: expected a resource() or resourceTemplate(), received ${describeValue(value)}`,
      );
    }
    if (isTemplate(value)) {
      if (this.#templates.has(value.uriTemplate)) {
        throw new TypeError(`${where}: the template "${value.uriTemplate}" is already served`);
      }
      this.#templates.set(value.uriTemplate, value);
    } else {
      if (this.#resources.has(value.uri))
        throw new TypeError(`${where}: the resource "${value.uri}" is already served`);
      this.#resources.set(value.uri, value);
    }
  }

  /** Removes the resource at `uri` (or the template spelled `uri`); `false` when none. */
  removeResource(uri: string): boolean {
    return this.#resources.delete(uri) || this.#templates.delete(uri);
  }

  addPrompt(value: McpServedPrompt): void {
    this.#addPrompt(value, 'mcpServer.addPrompt');
  }

  removePrompt(name: string): boolean {
    return this.#prompts.delete(name);
  }

  #addPrompt(value: McpServedPrompt, where: string): void {
    if (!isPrompt(value))
      throw new TypeError(`${where}: expected a prompt(), received ${describeValue(value)}`);
    if (this.#prompts.has(value.name))
      throw new TypeError(`${where}: a prompt named "${value.name}" is already served`);
    this.#prompts.set(value.name, value);
  }

  /** Tells each connection subscribed to `uri` that it changed. */
  notifyUpdated(uri: string): void {
    for (const [server, { uris }] of this.#subscriptions) {
      if (uris.has(uri))
        server.sendResourceUpdated({ uri }).catch(() => this.#subscriptions.delete(server));
    }
  }

  /** Forgets a closed connection's subscriptions. */
  forget(server: Server): void {
    this.#subscriptions.delete(server);
  }

  /**
   * Registers the handlers for resources, prompts and completions on `server`.
   * `connected()` says whether it serves a connection that stays open: only those can
   * hold subscriptions (a 2026-era HTTP request's server ends with the request).
   */
  serve(server: Server, connected: () => boolean): void {
    if (this.#offersResources) this.#serveResources(server, connected);
    if (this.#offersPrompts) {
      server.setRequestHandler('prompts/list', () => ({
        prompts: this.prompts.map((p) => p.definition),
      }));
      server.setRequestHandler('prompts/get', async (request, ctx) => {
        const served = this.#prompts.get(request.params.name);
        if (served === undefined) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Unknown prompt "${request.params.name}". Available prompts: ${[...this.#prompts.keys()].join(', ') || '(none)'}.`,
          );
        }
        return await failureAsError(`Prompt "${served.name}"`, () =>
          answerPrompt(served, request.params.arguments, ctx, {
            callState: this.#callState,
            connectionCapabilities: () => server.getClientCapabilities(),
            inputRequired: isModernRevision(server.getNegotiatedProtocolVersion()),
          }),
        );
      });
    }
    if (this.#offersResources || this.#offersPrompts) {
      server.setRequestHandler('completion/complete', (request) =>
        complete(request.params, (ref, argument) => {
          if (ref.type === 'ref/prompt') return this.#prompts.get(ref.name)?.complete?.[argument];
          return this.#templates.get(ref.uri)?.complete?.[argument];
        }),
      );
    }
  }

  #serveResources(server: Server, connected: () => boolean): void {
    server.setRequestHandler('resources/list', () => ({
      resources: [...this.#resources.values()].map(listedResource),
    }));
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: [...this.#templates.values()].map(listedTemplate),
    }));
    server.setRequestHandler('resources/read', (request, ctx) =>
      this.#read(checkedUri('resources/read', request.params.uri), ctx),
    );
    server.setRequestHandler('resources/subscribe', (request) => {
      const uri = checkedUri('resources/subscribe', request.params.uri);
      if (!this.#exists(uri)) throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
      if (!connected()) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'resources/subscribe needs a connection that stays open (stdio, or a 2025-era HTTP session); this request is stateless.',
        );
      }
      this.#subscribe(server, uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (request) => {
      const subscriptions = this.#subscriptions.get(server);
      if (subscriptions?.uris.delete(request.params.uri))
        subscriptions.bytes -= Buffer.byteLength(request.params.uri);
      return {};
    });
  }

  /** Adds `uri` to the connection's subscriptions, within their count and their bytes. */
  #subscribe(server: Server, uri: string): void {
    const subscriptions = this.#subscriptions.get(server) ?? { uris: new Set<string>(), bytes: 0 };
    this.#subscriptions.set(server, subscriptions);
    if (subscriptions.uris.has(uri)) return;
    if (subscriptions.uris.size >= MAX_SUBSCRIPTIONS) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Too many subscriptions: this connection already follows ${MAX_SUBSCRIPTIONS} resources; unsubscribe from some first.`,
      );
    }
    const bytes = Buffer.byteLength(uri);
    if (subscriptions.bytes + bytes > MAX_SUBSCRIBED_URI_BYTES) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Too many subscriptions: the URIs this connection follows would take ${subscriptions.bytes + bytes} bytes, more than ${MAX_SUBSCRIBED_URI_BYTES}; unsubscribe from some first.`,
      );
    }
    subscriptions.uris.add(uri);
    subscriptions.bytes += bytes;
  }

  /** Whether a resource or a template answers for `uri`. */
  #exists(uri: string): boolean {
    return this.#resources.has(uri) || this.#match(uri) !== undefined;
  }

  #match(
    uri: string,
  ): { template: McpResourceTemplate; params: Record<string, string> } | undefined {
    for (const template of this.#templates.values()) {
      const params = matchTemplate(template, uri);
      if (params !== null) return { template, params };
    }
    return undefined;
  }

  async #read(uri: string, ctx: ServerContext) {
    const context = { uri, signal: ctx.mcpReq.signal, log: mcpLog(ctx) };
    const fixed = this.#resources.get(uri);
    if (fixed !== undefined) {
      return failureAsError(`Reading resource "${uri}"`, async () =>
        readResult(uri, await fixed.read(context), fixed.mimeType, this.#limits),
      );
    }
    const matched = this.#match(uri);
    if (matched === undefined) throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
    const { template, params } = matched;
    return failureAsError(`Reading resource "${uri}"`, async () =>
      readResult(uri, await template.read(params, context), template.mimeType, this.#limits),
    );
  }
}

/** `uri` of a `method` request, refused past {@link MAX_RESOURCE_URI_CHARS}. */
function checkedUri(method: string, uri: string): string {
  if (uri.length > MAX_RESOURCE_URI_CHARS) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${method}: uri: expected at most ${MAX_RESOURCE_URI_CHARS} characters, received ${uri.length}; no resource of this server has a longer URI.`,
    );
  }
  return uri;
}

/** Runs `work`; a failure that is not already a protocol error becomes an internal error naming `what`. */
async function failureAsError<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${what} failed: ${errorMessage(error)}`,
    );
  }
}
