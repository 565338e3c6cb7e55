/**
 * `mcpServer()`: serves fino tools to any MCP client over stdio or Streamable HTTP,
 * built on the official SDK's low-level `Server`.
 */
import type { Readable, Writable } from 'node:stream';
import type { Server, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { AnyTask } from '../../../task/index.ts';
import { CallStateCodec } from './call-state.ts';
import { clientCanElicit } from './call-tool.ts';
import { Catalog } from './catalog.ts';
import { Connections } from './connections.ts';
import {
  httpHandler,
  listenHttp,
  type McpHandlerOptions,
  type McpHttpServer,
  type McpListenOptions,
  type McpNodeHandler,
  serverAuth,
} from './http/index.ts';
import { boundingListens, listenBoundsError } from './listen-bounds.ts';
import type { McpServedPrompt } from './prompts.ts';
import type { AnyResource } from './resources.ts';
import { ServedTools } from './served-tools.ts';
import {
  approvalMode,
  checkNameAndVersion,
  type McpServerOptions,
  maxResourceBytes,
} from './server-options.ts';
import {
  serveTasks,
  TASKS_CAPABILITY,
  TASKS_EXTENSION,
  TaskRunner,
  TaskServer,
  taskSetting,
} from './tasks/index.ts';
import { answerTools } from './tool-handlers.ts';

/** The streams a stdio server reads requests from and writes responses to. */
export interface StdioStreams {
  stdin?: Readable;
  stdout?: Writable;
}

/** The object {@link mcpServer} returns. */
export interface McpToolServer {
  readonly name: string;
  /** The tools served now, in listing order. */
  readonly tools: readonly AnyTask[];
  /**
   * Serves one more tool from now on and tells connected clients
   * (`notifications/tools/list_changed`). Throws for a value that is not a fino tool
   * or a name already served.
   */
  addTool(tool: AnyTask): void;
  /**
   * Stops serving the tool named `name` and tells connected clients; `false` when no
   * such tool is served. Calls already running finish.
   */
  removeTool(name: string): boolean;
  /** The resources and resource templates served now. */
  readonly resources: readonly AnyResource[];
  /** The prompts served now. */
  readonly prompts: readonly McpServedPrompt[];
  /** Serves one more resource or template and tells connected clients (`list_changed`). */
  addResource(resource: AnyResource): void;
  /** Stops serving the resource at `uri` (or the template spelled `uri`); `false` when none. */
  removeResource(uri: string): boolean;
  /** Serves one more prompt and tells connected clients. */
  addPrompt(prompt: McpServedPrompt): void;
  /** Stops serving the prompt named `name`; `false` when none. */
  removePrompt(name: string): boolean;
  /** Tells clients subscribed to `uri` that it changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void;
  /** A fresh SDK `Server` answering for these tools, for wiring your own transport. */
  createServer(): Server;
  /** Serves these tools over an SDK transport; resolves with the connected `Server`. */
  connect(transport: Transport): Promise<Server>;
  /**
   * Serves these tools over stdio: this process's stdin/stdout unless others are given.
   * Resolves `closed` when the client ends the connection (closes the input).
   */
  serveStdio(streams?: StdioStreams): { closed: Promise<void>; close(): Promise<void> };
  /** A handler to mount in an existing Node HTTP server (Express, Fastify, `node:http`). */
  handler(options?: McpHandlerOptions): McpNodeHandler;
  /** Starts a Streamable HTTP server (default `127.0.0.1`, a free port, path `/mcp`). */
  listen(options?: McpListenOptions): Promise<McpHttpServer>;
}

/**
 * Serves fino tools over MCP.
 *
 * `tools/list` gives each tool's name, description, JSON Schema, output schema and
 * annotations (`readOnlyHint` from `sideEffects`, `destructiveHint` from `risk`,
 * `idempotentHint` from `idempotent`, `openWorldHint` from `effects`; decision 092);
 * `tools/call` runs `invoke()`, so bad arguments come back as `isError` results a model
 * can repair from, and structured output is checked against the output schema (decision
 * 093). `ctx.progress()` reaches clients that sent a progress token; `addTool()` and
 * `removeTool()` announce the change to connected clients. A tool that `requiresApproval`, or that suspends, asks the client's
 * user through elicitation; a client that cannot ask gets a refusal, never a silent run.
 * Tools declared with `execution` run as durable MCP Tasks (2025-11-25): the client
 * gets a task id at once and polls; tasks live in `store` and outlive the process
 * (decisions 095, 096).
 *
 * @example
 * ```ts
 * import { mcpServer } from 'fino:ai/mcp';
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const add = tool({
 *   name: 'add',
 *   description: 'Add two numbers.',
 *   parameters: v.object({ a: v.number(), b: v.number() }),
 *   sideEffects: false,
 *   execute: ({ a, b }: { a: number; b: number }) => String(a + b),
 * });
 *
 * const server = mcpServer({ name: 'calculator', version: '1.0.0', tools: [add] });
 * const http = await server.listen({ port: 0 });
 * console.log(`MCP server at ${http.url}`);
 * await http.close();
 * ```
 */
export function mcpServer(options: McpServerOptions): McpToolServer {
  checkNameAndVersion(options);
  const served = new ServedTools(options.tools);
  const connections = new Connections();
  const callState = new CallStateCodec(options.stateKey);
  const catalog = new Catalog({
    callState,
    resources: options.resources,
    prompts: options.prompts,
    limits: { maxBytes: maxResourceBytes(options.maxResourceBytes) },
  });
  const bearer =
    options.auth === undefined
      ? undefined
      : serverAuth(options.auth, () => served.tools().map((tool) => tool.scopes));
  const approval = approvalMode(options.approval);
  const runner = new TaskRunner({
    ...taskSetting(options),
    approval,
    tool: (name) => served.get(name),
  });
  const tools = {
    served,
    approval,
    callState,
    runner,
    bearer,
  };

  const createServer = (): Server => {
    // This server runs MCP tasks: it was given a store, or serves a tool declaring `execution`.
    const withTasks = options.store !== undefined || served.declaresExecution();
    const server = new TaskServer(
      { name: options.name, version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          ...catalog.capabilities(),
          ...(withTasks ? { tasks: TASKS_CAPABILITY, extensions: { [TASKS_EXTENSION]: {} } } : {}),
        },
        instructions: options.instructions,
      },
    );
    if (withTasks) {
      serveTasks(server, runner, (ctx) =>
        clientCanElicit(ctx, { connectionCapabilities: () => server.getClientCapabilities() }),
      );
      runner.activate();
    }
    catalog.serve(server, () => connections.has(server));
    answerTools(server, tools, withTasks);
    return server;
  };
  /** A server for a connection that stays open: it hears about list changes. */
  const createConnectedServer = (): Server =>
    connections.add(createServer(), (server) => catalog.forget(server));
  const handler = (handlerOptions: McpHandlerOptions = {}): McpNodeHandler =>
    httpHandler(
      {
        createServer,
        createConnectedServer,
        notifiers: connections.notifiers,
        refuse: listenBoundsError,
        close: () => runner.close(),
        ...(bearer ? { auth: bearer } : {}),
      },
      handlerOptions,
    );

  return {
    name: options.name,
    get tools() {
      return served.tools();
    },
    addTool: connections.adding('tools', (tool: AnyTask) => served.add(tool)),
    removeTool: connections.removing('tools', (name: string) => served.remove(name)),
    get resources() {
      return catalog.resources;
    },
    get prompts() {
      return catalog.prompts;
    },
    addResource: connections.adding('resources', (resource: AnyResource) =>
      catalog.addResource(resource),
    ),
    removeResource: connections.removing('resources', (uri: string) => catalog.removeResource(uri)),
    addPrompt: connections.adding('prompts', (prompt: McpServedPrompt) =>
      catalog.addPrompt(prompt),
    ),
    removePrompt: connections.removing('prompts', (name: string) => catalog.removePrompt(name)),
    notifyResourceUpdated: (uri) => {
      catalog.notifyUpdated(uri);
      connections.resourceUpdated(uri);
    },
    createServer,
    async connect(transport) {
      const server = createConnectedServer();
      await server.connect(transport);
      return server;
    },
    serveStdio: (streams) => stdioServing(createConnectedServer, runner, streams),
    handler,
    listen: (listenOptions = {}) => listenHttp(listenOptions, handler),
  };
}

/** Serves over stdio: this process's stdin/stdout unless others are given. */
function stdioServing(
  createConnectedServer: () => Server,
  runner: TaskRunner,
  { stdin = process.stdin, stdout = process.stdout }: StdioStreams = {},
): { closed: Promise<void>; close(): Promise<void> } {
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  const handle = serveStdio(createConnectedServer, {
    transport: boundingListens(new StdioServerTransport(stdin, stdout)),
  });
  return {
    closed,
    close: () => {
      runner.close();
      return handle.close();
    },
  };
}
