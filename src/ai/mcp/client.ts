/**
 * `mcpClient()`: uses any MCP server's tools as fino tools, through the official SDK client.
 */
import {
  Client,
  type ElicitRequest,
  type ElicitResult,
  type Tool as McpTool,
  type Transport,
} from '@modelcontextprotocol/client';
import type { Tool } from '../tool/index.ts';
import { diffFingerprints, fingerprint, type ToolsDiff } from './fingerprint.ts';
import { remoteTool } from './remote-tool.ts';
import { type McpTransportSpec, openTransport } from './transports.ts';

/** Options of {@link mcpClient}. */
export interface McpClientOptions {
  /** Where the server is: {@link stdio}, {@link http}, or any SDK client `Transport`. */
  transport: McpTransportSpec | Transport;
  /** This client's name and version, as the server sees them (default `fino`). */
  name?: string;
  version?: string;
  /**
   * Mark remote tools that are destructive and not read-only as `requiresApproval`
   * (default `true`). Set `false` when the application confirms calls another way.
   */
  approveDestructive?: boolean;
  /** Deadline of one remote call, in milliseconds (default: the SDK's, 60 s). */
  timeoutMs?: number;
  /**
   * Answers the server's elicitation requests (approval of a gated tool, a suspended
   * tool's question). Without it the client declares no elicitation capability, and
   * such calls are refused by the server.
   */
  onElicit?: (request: ElicitRequest['params']) => Promise<ElicitResult> | ElicitResult;
}

/** Called when a listing differs from the one before it. */
export type ToolsChangedListener = (diff: ToolsDiff) => void;

/** The object {@link mcpClient} returns. */
export interface McpToolClient {
  /** Connects and performs the MCP handshake; `tools()` connects on first use too. */
  connect(): Promise<void>;
  /** The server's tools as fino `Tool`s, validated locally before each call. */
  tools(): Promise<Tool[]>;
  /** Each tool's definition fingerprint from the latest listing (SHA-256, hex). */
  fingerprints(): ReadonlyMap<string, string>;
  /** Reports listings that differ from the previous one; returns an unsubscribe function. */
  onToolsChanged(listener: ToolsChangedListener): () => void;
  /** Ends the connection (and the server process, for stdio). */
  close(): Promise<void>;
}

/**
 * Adapts a remote MCP server's tools into fino `Tool`s.
 *
 * Each tool's parameters are the server's raw JSON Schema, validated locally with
 * `fino:validate` before anything is sent; annotations map back (`destructiveHint` →
 * `risk: 'destructive'`, `readOnlyHint` → `sideEffects: false`); results map back to
 * content parts with `isError` kept; aborting the call's signal cancels the remote call.
 *
 * @example
 * ```ts
 * import { http, mcpClient } from 'fino/ai/mcp';
 *
 * const client = mcpClient({ transport: http({ url: 'http://127.0.0.1:3000/mcp' }) });
 * const tools = await client.tools();
 * client.onToolsChanged((diff) => console.warn('re-approve:', diff.changed));
 * const result = await tools[0].invoke({ path: '.' });
 * await client.close();
 * ```
 */
export function mcpClient(options: McpClientOptions): McpToolClient {
  if (options?.transport === undefined) {
    throw new TypeError('mcpClient: transport is required: stdio({ command }) or http({ url })');
  }
  const spec = options.transport;
  const sdk = new Client(
    { name: options.name ?? 'fino', version: options.version ?? '0' },
    {
      capabilities: options.onElicit ? { elicitation: { form: {} } } : {},
      // HTTP negotiates the newest protocol and falls back; stdio speaks the 2025
      // handshake every server knows, without the probe's extra process (decision 044).
      versionNegotiation: 'kind' in spec && spec.kind === 'stdio' ? undefined : { mode: 'auto' },
    },
  );
  const onElicit = options.onElicit;
  if (onElicit) sdk.setRequestHandler('elicitation/create', (request) => onElicit(request.params));

  let connecting: Promise<void> | undefined;
  let known: Map<string, string> | undefined;
  const listeners = new Set<ToolsChangedListener>();

  const connect = () => {
    connecting ??= sdk.connect(openTransport(spec)).catch((error: unknown) => {
      connecting = undefined; // a later call may try again
      throw error;
    });
    return connecting;
  };

  return {
    connect,
    async tools() {
      await connect();
      const { tools } = await sdk.listTools();
      const latest = new Map(tools.map((t: McpTool) => [t.name, fingerprint(t)]));
      const diff = known && diffFingerprints(known, latest);
      known = latest;
      if (diff) for (const listener of listeners) listener(diff);
      return tools.map((definition) =>
        remoteTool(definition, {
          call: (params, signal) => sdk.callTool(params, { signal, timeout: options.timeoutMs }),
          approveDestructive: options.approveDestructive ?? true,
        }),
      );
    },
    fingerprints: () => new Map(known),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await sdk.close();
    },
  };
}
