/**
 * `mcpServer()`: serves fino tools to any MCP client over stdio or Streamable HTTP,
 * built on the official SDK's low-level `Server`.
 */
import type { Readable, Writable } from 'node:stream';
import {
  type CallToolResult,
  isInputRequiredResult,
  type Tool as McpTool,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { describeValue } from '../../../internal/describe-value.ts';
import { type AnyTask, isTask } from '../../../task/index.ts';
import type { Store } from '../../session/index.ts';
import { type OutputValidator, outputValidator } from '../protocol/index.ts';
import { CallStateCodec } from './call-state.ts';
import { type ApprovalMode, callTool, clientCanElicit } from './call-tool.ts';
import { Catalog } from './catalog.ts';
import {
  httpHandler,
  listenHttp,
  type McpHandlerOptions,
  type McpHttpServer,
  type McpListenOptions,
  type McpNodeHandler,
  type McpServerAuth,
  missingScopes,
  serverAuth,
} from './http/index.ts';
import { progressNotifier } from './progress-notifier.ts';
import type { McpServedPrompt } from './prompts.ts';
import { type AnyResource, DEFAULT_READ_LIMITS } from './resources.ts';
import {
  type McpServerTaskOptions,
  ownerOf,
  serveTasks,
  TASKS_CAPABILITY,
  TaskRunner,
  TaskServer,
  taskSetting,
} from './tasks/index.ts';
import { toMcpTool } from './tool-listing.ts';

/** Options of {@link mcpServer}. */
export interface McpServerOptions {
  /** The server's name, shown by clients. */
  name: string;
  version: string;
  /** Guidance for the client's model on how to use these tools. */
  instructions?: string;
  /** The tools to serve: any fino `Task` or `Tool`. */
  tools: readonly AnyTask[];
  /** How calls that need a human decision are served (default `'elicit'`). */
  approval?: ApprovalMode;
  /**
   * Where MCP tasks live (tools declared with `execution`): a fino session store —
   * `sqliteStore()`, or `postgresStore()` for several servers sharing the tasks.
   * Default: `sqliteStore('.fino/mcp-tasks.db')`, opened when first needed. Tasks
   * survive a restart of the server; see docs/mcp.md, "Long work: MCP Tasks".
   */
  store?: Store;
  /** How MCP tasks are kept and run. */
  tasks?: McpServerTaskOptions;
  /**
   * Resources to serve: `resource()` for one URI, `resourceTemplate()` for a family of
   * URIs. Given (even empty), the server declares the resources capability (with
   * subscriptions and list changes).
   */
  resources?: readonly AnyResource[];
  /** Prompts to serve, made with `prompt()`. Given (even empty), the server declares prompts. */
  prompts?: readonly McpServedPrompt[];
  /** The most bytes one `resources/read` answer may carry (default 16 MiB). */
  maxResourceBytes?: number;
  /**
   * OAuth 2.1 over HTTP: the server publishes protected-resource metadata naming its
   * authorization servers, checks every request's bearer token with `verify` (401/403
   * challenges the MCP client logs in from), and refuses a tool whose own `scopes` the
   * token lacks. Decisions 125, 126.
   */
  auth?: McpServerAuth;
}

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
  if (
    typeof options?.name !== 'string' ||
    options.name === '' ||
    typeof options.version !== 'string'
  ) {
    throw new TypeError(
      'mcpServer: expected { name, version, tools }, with name and version as non-empty strings',
    );
  }
  const served = new Map<string, ServedTool>();
  for (const tool of indexTools(options.tools).values()) served.set(tool.name, serveTool(tool));
  let listing: McpTool[] = [...served.values()].map((t) => t.definition);
  /** Connections that stay open (stdio, `connect()`, 2025-era HTTP sessions). */
  const connected = new Set<Server>();
  /** The modern HTTP handlers, whose `subscriptions/listen` streams hear list changes. */
  const notifiers = new Set<{ toolsChanged(): void }>();
  const toolsChanged = () => {
    listing = [...served.values()].map((t) => t.definition);
    for (const server of connected) {
      server.sendToolListChanged().catch(() => connected.delete(server));
    }
    for (const notifier of notifiers) notifier.toolsChanged();
  };
  const catalog = new Catalog({
    resources: options.resources,
    prompts: options.prompts,
    limits: { maxBytes: maxResourceBytes(options.maxResourceBytes) },
  });
  const listChanged = (send: (server: Server) => Promise<void>) => {
    for (const server of connected) send(server).catch(() => connected.delete(server));
  };
  const bearer =
    options.auth === undefined
      ? undefined
      : serverAuth(options.auth, () => [...served.values()].map(({ tool }) => tool.scopes));
  const callState = new CallStateCodec();
  const approval = options.approval ?? 'elicit';
  if (!['elicit', 'client', 'deny'].includes(approval)) {
    throw new TypeError(
      `mcpServer: approval: expected 'elicit', 'client' or 'deny', received ${describeValue(approval)}`,
    );
  }

  const tasks = taskSetting(options);
  const runner = new TaskRunner({
    ...tasks,
    approval,
    tool: (name) => served.get(name),
  });
  /** Whether this server runs MCP tasks: it was given a store, or serves a tool declaring `execution`. */
  const runsTasks = () =>
    options.store !== undefined || [...served.values()].some((t) => t.tool.execution !== undefined);

  const createServer = (): Server => {
    const withTasks = runsTasks();
    const server = new TaskServer(
      { name: options.name, version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          ...catalog.capabilities(),
          ...(withTasks ? { tasks: TASKS_CAPABILITY } : {}),
        },
        instructions: options.instructions,
      },
    );
    const canElicit = (ctx: ServerContext) =>
      clientCanElicit(ctx, { connectionCapabilities: () => server.getClientCapabilities() });
    if (withTasks) {
      serveTasks(server, runner, canElicit);
      runner.activate();
    }
    catalog.serve(server, () => connected.has(server));
    server.setRequestHandler('tools/list', () => ({ tools: listing }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const entry = served.get(name);
      if (entry === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool "${name}". Available tools: ${[...served.keys()].join(', ')}.`,
        );
      }
      const { tool } = entry;
      const missing = missingScopes(bearer, tool.scopes, ctx.http?.authInfo);
      if (missing.length > 0) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `Tool "${name}" needs the scope(s) ${missing.join(', ')}, which this access token does not carry; log in again asking for them.`,
        );
      }
      // MCP Tasks are a 2025-11-25 feature; the 2026-07-28 revision moved them to an
      // extension the SDK does not negotiate, so there every call is answered directly.
      if (withTasks && isTaskEra(server.getNegotiatedProtocolVersion())) {
        const taskParam = (request.params as { task?: unknown }).task;
        if (taskParam !== undefined) {
          if (tool.execution === undefined) {
            throw new ProtocolError(
              ProtocolErrorCode.MethodNotFound,
              `Tool "${name}" does not run as a task (its execution.taskSupport is "forbidden"); call it without params.task.`,
            );
          }
          // A CreateTaskResult, which TaskServer answers as it is (the SDK types expect a CallToolResult).
          const created = await runner.create(entry, args ?? {}, taskParam, ownerOf(ctx), {
            status: (task) => {
              server
                .notification({ method: 'notifications/tasks/status', params: task })
                .catch(() => undefined); // the client left: it can still poll
            },
            // The task outlives this request: its progress goes out on the connection.
            progress: progressNotifier(ctx, (n) => server.notification(n)),
          });
          return created as unknown as CallToolResult;
        }
        if (tool.execution === 'task') {
          throw new ProtocolError(
            ProtocolErrorCode.MethodNotFound,
            `Tool "${name}" runs only as a task (its execution.taskSupport is "required"): call it with params.task, e.g. { "task": { "ttl": 60000 } }.`,
          );
        }
      }
      const result = await callTool(tool, args ?? {}, ctx, {
        approval,
        callState,
        connectionCapabilities: () => server.getClientCapabilities(),
        outputValidator: entry.outputValidator,
      });
      if (isInputRequiredResult(result)) return result;
      return server.projectCallToolResult(result, entry.definition.outputSchema);
    });
    return server;
  };
  /** A server for a connection that stays open: it hears about tool list changes. */
  const createConnectedServer = (): Server => {
    const server = createServer();
    connected.add(server);
    const closed = server.onclose;
    server.onclose = () => {
      connected.delete(server);
      catalog.forget(server);
      closed?.();
    };
    return server;
  };

  const handler = (handlerOptions: McpHandlerOptions = {}): McpNodeHandler =>
    httpHandler(
      {
        createServer,
        createConnectedServer,
        notifiers,
        close: () => runner.close(),
        ...(bearer ? { auth: bearer } : {}),
      },
      handlerOptions,
    );

  return {
    name: options.name,
    get tools() {
      return [...served.values()].map((t) => t.tool);
    },
    addTool(tool) {
      if (!isTask(tool)) {
        throw new TypeError(
          'mcpServer.addTool: expected a fino Task or Tool (build it with task() or tool())',
        );
      }
      if (served.has(tool.name)) {
        throw new TypeError(
          `mcpServer.addTool: a tool named "${tool.name}" is already served; remove it first`,
        );
      }
      served.set(tool.name, serveTool(tool));
      toolsChanged();
    },
    removeTool(name) {
      if (!served.delete(name)) return false;
      toolsChanged();
      return true;
    },
    get resources() {
      return catalog.resources;
    },
    get prompts() {
      return catalog.prompts;
    },
    addResource(resource) {
      catalog.addResource(resource);
      listChanged((server) => server.sendResourceListChanged());
    },
    removeResource(uri) {
      if (!catalog.removeResource(uri)) return false;
      listChanged((server) => server.sendResourceListChanged());
      return true;
    },
    addPrompt(prompt) {
      catalog.addPrompt(prompt);
      listChanged((server) => server.sendPromptListChanged());
    },
    removePrompt(name) {
      if (!catalog.removePrompt(name)) return false;
      listChanged((server) => server.sendPromptListChanged());
      return true;
    },
    notifyResourceUpdated: (uri) => catalog.notifyUpdated(uri),
    createServer,
    async connect(transport) {
      const server = createConnectedServer();
      await server.connect(transport);
      return server;
    },
    serveStdio({ stdin = process.stdin, stdout = process.stdout } = {}) {
      const closed = new Promise<void>((resolve) => {
        stdin.once('end', resolve);
        stdin.once('close', resolve);
      });
      const handle = serveStdio(createConnectedServer, {
        transport: new StdioServerTransport(stdin, stdout),
      });
      return {
        closed,
        close: () => {
          runner.close();
          return handle.close();
        },
      };
    },
    handler,
    listen: (listenOptions = {}) => listenHttp(listenOptions, handler),
  };
}

/** `maxResourceBytes` checked: a whole number of bytes > 0 (default 16 MiB). */
function maxResourceBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_READ_LIMITS.maxBytes;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `mcpServer: maxResourceBytes: expected a whole number of bytes > 0, received ${describeValue(value)}`,
    );
  }
  return value;
}

/** Whether a negotiated protocol revision has MCP Tasks in its core (the 2025 ones). */
const isTaskEra = (version: string | undefined) => version === undefined || version < '2026';

function indexTools(tools: readonly AnyTask[]): Map<string, AnyTask> {
  if (!Array.isArray(tools)) {
    throw new TypeError(
      `mcpServer: tools: expected an array of fino tools, received ${describeValue(tools)}`,
    );
  }
  const byName = new Map<string, AnyTask>();
  for (const [index, tool] of tools.entries()) {
    if (!isTask(tool)) {
      throw new TypeError(
        `mcpServer: tools[${index}]: expected a fino Task or Tool (build it with task() or tool()), received ${describeValue(tool)}`,
      );
    }
    if (byName.has(tool.name)) {
      throw new TypeError(
        `mcpServer: two tools are named "${tool.name}"; tool names must be unique`,
      );
    }
    byName.set(tool.name, tool);
  }
  return byName;
}

/** A tool as served: its listed definition and its compiled output schema. */
interface ServedTool {
  tool: AnyTask;
  definition: McpTool;
  outputValidator: OutputValidator;
}

function serveTool(tool: AnyTask): ServedTool {
  return {
    tool,
    definition: toMcpTool(tool),
    outputValidator: outputValidator(tool.outputSchema, `mcpServer: tool "${tool.name}"`),
  };
}
