/**
 * `mcpClient()`: uses any MCP server's tools as fino tools, through the official SDK client.
 */

import type { Transport } from '@modelcontextprotocol/client';
import { checkDuration } from '../../../internal/duration.ts';
import type { Tool } from '../../tool/index.ts';
import { ApprovedCalls } from './approved-calls.ts';
import { catalogClient, type McpCatalogClient } from './client-catalog.ts';
import {
  checkClientOptions,
  type McpClientOptions,
  type McpClientWarning,
  taskTiming,
} from './client-options.ts';
import { coalesced } from './coalesced.ts';
import { connectionError, transportTarget } from './connection-error.ts';
import { negotiationFor } from './protocol-choice.ts';
import { RemoteCalls } from './remote-calls.ts';
import { ResourceFollows } from './resource-follows.ts';
import { samplingLimits } from './sampling-requests.ts';
import { finoJsonSchemaValidator } from './sdk-validator.ts';
import { answerServerMessages } from './server-messages.ts';
import { TaskExtensionClient } from './task-extension-client.ts';
import { taskQuestionAnswerer } from './task-questions.ts';
import { TaskInputs } from './tasks/index.ts';
import { ToolListings, type ToolsChangedListener, usableTools } from './tool-listings.ts';
import { httpTransport, type McpTransportSpec, openTransport } from './transports.ts';

/** The object {@link mcpClient} returns. */
export interface McpToolClient extends McpCatalogClient {
  /** Connects and performs the MCP handshake; `tools()` connects on first use too. */
  connect(): Promise<void>;
  /**
   * The server's tools as fino `Tool`s, validated locally before each call. A tool whose
   * definition fino cannot use (an invalid schema, an unresolvable `$ref`) is left out,
   * and `onWarning` says which and why; the others stay usable.
   */
  tools(): Promise<Tool[]>;
  /** Each tool's definition fingerprint from the latest listing (SHA-256, hex). */
  fingerprints(): ReadonlyMap<string, string>;
  /**
   * Reports listings that differ from the previous one — from `tools()` and from the
   * server's `notifications/tools/list_changed` — and returns an unsubscribe function.
   */
  onToolsChanged(listener: ToolsChangedListener): () => void;
  /**
   * The MCP revision this connection speaks (`'2026-07-28'`, `'2025-11-25'`, …), or
   * `undefined` before it connects. See {@link McpClientOptions.protocol}.
   */
  protocolVersion(): string | undefined;
  /** Ends the connection (and the server process, for stdio). */
  close(): Promise<void>;
}

/**
 * Adapts a remote MCP server's tools into fino `Tool`s.
 *
 * Each tool's parameters are the server's raw JSON Schema, validated locally with
 * `fino:validate` before anything is sent; annotations map back (`destructiveHint` →
 * `risk: 'destructive'`, `readOnlyHint` → `sideEffects`, `idempotentHint` → `idempotent`);
 * results map back to content parts with `isError` kept and `structuredContent` checked
 * against the tool's `outputSchema`; aborting the call's signal cancels the remote call.
 * When the server announces a changed tool list, a `Tool` whose definition changed or
 * vanished returns an `isError` result instead of calling it. A tool that declares
 * `execution.taskSupport` runs as an MCP task, polled to its end; a task waiting for
 * input suspends the call (see {@link McpClientOptions.tasks}, decision 098).
 *
 * @example
 * ```ts
 * import { httpTransport, mcpClient } from 'fino:ai/mcp';
 *
 * const client = mcpClient({ transport: httpTransport({ url: 'http://127.0.0.1:3000/mcp' }) });
 * const tools = await client.tools();
 * client.onToolsChanged((diff) => console.warn('re-approve:', diff.changed));
 * const result = await tools[0].invoke({ path: '.' });
 * await client.close();
 * ```
 */
export function mcpClient(options: McpClientOptions): McpToolClient {
  checkClientOptions(options);
  const spec =
    options.transport ??
    httpTransport({
      url: options.url as string | URL,
      ...(options.auth ? { auth: options.auth } : {}),
    });
  const timeout = checkDuration('mcpClient: timeoutMs', options.timeoutMs);
  const timing = taskTiming(options.tasks);
  const warn = options.onWarning ?? ((warning: McpClientWarning) => console.warn(warning.message));
  const listings = new ToolListings();
  const sdk = sdkClient(options, spec, () => refreshListing());
  // However many list_changed notifications a server sends, one listing is in flight
  // and one more pending (decision 184).
  const refreshListing = coalesced(
    async () => {
      listings.record((await sdk.listTools(undefined, { cacheMode: 'refresh' })).tools);
    },
    () => undefined, // a failed refresh leaves the previous listing; tools() reports errors
  );
  const approved = new ApprovedCalls();
  const inputs = new TaskInputs();
  const follows = new ResourceFollows(sdk);
  const listenProgress = answerServerMessages(sdk, options, {
    approved,
    inputs,
    resourceUpdated: (uri) => follows.updated(uri),
    sampling: samplingLimits(options.sampling),
  });
  const calls = new RemoteCalls({
    sdk,
    timeout,
    timing,
    approved,
    inputs,
    listenProgress,
    answerTaskQuestion: taskQuestionAnswerer(options, { approved, inputs }),
  });
  const approveDestructive = options.approveDestructive ?? true;

  let connecting: Promise<void> | undefined;
  const connect = () => {
    connecting ??= sdk.connect(openTransport(spec)).catch((error: unknown) => {
      connecting = undefined; // a later call may try again
      throw connectionError(transportTarget(spec), error);
    });
    return connecting;
  };
  return {
    ...catalogClient(sdk, connect, follows),
    connect,
    async tools() {
      await connect();
      const { tools } = await sdk.listTools().catch((cause: unknown) => {
        throw new Error(
          `mcpClient: could not list the server's tools: ${(cause as Error)?.message ?? String(cause)}`,
          { cause },
        );
      });
      return usableTools(tools, {
        listings,
        call: (request, ctx, isApproved) => calls.call(request, ctx, isApproved),
        approveDestructive,
        serverTakesTasks: () => calls.serverTakesTasks(),
        callsTasks: timing !== undefined,
        warn,
      });
    },
    fingerprints: () => listings.fingerprints(),
    onToolsChanged: (listener) => listings.onChanged(listener),
    protocolVersion: () => sdk.getNegotiatedProtocolVersion(),
    async close() {
      inputs.clear();
      follows.clear();
      await sdk.close();
    },
  };
}

/** The SDK client for `options`; `toolsChanged` hears the server's tool list changed. */
function sdkClient(
  options: McpClientOptions,
  spec: McpTransportSpec | Transport,
  toolsChanged: () => void,
): TaskExtensionClient {
  const sdk = new TaskExtensionClient(
    { name: options.name ?? 'fino', version: options.version ?? '0' },
    {
      // Always declared: a fino server asks approval for calls this client already approved.
      capabilities: {
        elicitation: { form: {} },
        ...(options.onSample ? { sampling: {} } : {}),
        ...(options.onRoots ? { roots: {} } : {}),
      },
      // Remote structured output is checked by fino's validator, worded field by field.
      jsonSchemaValidator: finoJsonSchemaValidator,
      ...negotiationFor(options.protocol, spec),
      // The server's list_changed notifications (or, on a 2026 connection, the SDK's
      // subscription) refresh the fingerprints, so stale Tool objects stop calling.
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: toolsChanged } },
    },
  );
  // A client that hears logs hears them all until it sets a level, in both eras (decision 210).
  if (options.onLog) sdk.logLevel = 'debug';
  return sdk;
}
