/**
 * The options of `mcpServer()` and their checks, each naming the field it refuses.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import type { AnyTask } from '../../../task/index.ts';
import type { Store } from '../../session/index.ts';
import type { ApprovalMode } from './call-tool.ts';
import type { McpServerAuth } from './http/index.ts';
import type { McpServedPrompt } from './prompts.ts';
import { type AnyResource, DEFAULT_READ_LIMITS } from './resources.ts';
import type { StateKey } from './state-key.ts';
import type { McpServerTaskOptions } from './tasks/index.ts';

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
  /**
   * The key (a string or bytes, at least 32) that seals the `requestState` a 2026-07-28
   * client echoes when it answers: give every instance behind a load balancer the same
   * one, and keep it across restarts, so a retry may land on any of them. Default: a
   * random key per instance. Decision 206.
   */
  stateKey?: StateKey;
}

/** Throws unless `options` has a non-empty `name` and a `version`. */
export function checkNameAndVersion(options: McpServerOptions): void {
  if (
    typeof options?.name !== 'string' ||
    options.name === '' ||
    typeof options.version !== 'string'
  ) {
    throw new TypeError(
      'mcpServer: expected { name, version, tools }, with name and version as non-empty strings',
    );
  }
}

/** The `approval` option checked (default `'elicit'`). */
export function approvalMode(value: ApprovalMode | undefined): ApprovalMode {
  const approval = value ?? 'elicit';
  if (!['elicit', 'client', 'deny'].includes(approval)) {
    throw new TypeError(
      `mcpServer: approval: expected 'elicit', 'client' or 'deny', received ${describeValue(approval)}`,
    );
  }
  return approval;
}

/** `maxResourceBytes` checked: a whole number of bytes > 0 (default 16 MiB). */
export function maxResourceBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_READ_LIMITS.maxBytes;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `mcpServer: maxResourceBytes: expected a whole number of bytes > 0, received ${describeValue(value)}`,
    );
  }
  return value;
}
