/**
 * The server's tool listings as an `mcpClient()` sees them: each tool's definition
 * fingerprint from the latest listing (a `Tool` whose definition changed or vanished
 * stops calling), who hears that a listing differs, and which listed tools become fino
 * tools (the others are skipped with a warning).
 */
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { Tool } from '../../tool/index.ts';
import type { McpClientWarning } from './client-options.ts';
import { diffFingerprints, fingerprint, type ToolsDiff } from './fingerprint.ts';
import { type RemoteCall, remoteTool } from './remote-tool.ts';

/** Called when a listing differs from the one before it. */
export type ToolsChangedListener = (diff: ToolsDiff) => void;

/** The latest listing's fingerprints, and the listeners to its changes. */
export class ToolListings {
  #known: Map<string, string> | undefined;
  readonly #listeners = new Set<ToolsChangedListener>();

  /** Takes a listing as the server's current tools; reports how it differs from the last. */
  record(tools: McpTool[]): Map<string, string> {
    const latest = new Map(tools.map((t: McpTool) => [t.name, fingerprint(t)]));
    const diff = this.#known && diffFingerprints(this.#known, latest);
    this.#known = latest;
    if (diff) for (const listener of this.#listeners) listener(diff);
    return latest;
  }

  /** The fingerprint of the tool named `name` in the latest listing. */
  current(name: string): string | undefined {
    return this.#known?.get(name);
  }

  fingerprints(): ReadonlyMap<string, string> {
    return new Map(this.#known);
  }

  /** Reports listings that differ from the previous one; returns an unsubscribe function. */
  onChanged(listener: ToolsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** What turning listed definitions into fino tools needs. */
export interface UsableToolsSetting {
  listings: ToolListings;
  call: RemoteCall['call'];
  approveDestructive: boolean;
  /** Whether the server takes task calls (a tool that requires one is skipped without). */
  serverTakesTasks(): boolean;
  /** Whether this client calls tasks at all (`tasks: false` does not). */
  callsTasks: boolean;
  warn(warning: McpClientWarning): void;
}

/** The listed tools as fino tools; a tool fino cannot use is skipped, with a warning. */
export function usableTools(tools: McpTool[], setting: UsableToolsSetting): Tool[] {
  const latest = setting.listings.record(tools);
  const usable: Tool[] = [];
  for (const definition of tools) {
    if (definition.execution?.taskSupport === 'required' && !setting.serverTakesTasks()) {
      const why = setting.callsTasks
        ? 'it must run as a task, and the server does not declare task calls for tools (capabilities.tasks.requests.tools.call)'
        : 'it must run as a task, and this client calls no tasks (tasks: false)';
      setting.warn({
        type: 'tool-skipped',
        tool: definition.name,
        message: `mcpClient: skipped remote tool ${JSON.stringify(definition.name)}: ${why}`,
        cause: undefined,
      });
      continue;
    }
    try {
      usable.push(
        remoteTool(definition, {
          call: setting.call,
          approveDestructive: setting.approveDestructive,
          fingerprint: latest.get(definition.name) ?? '',
          currentFingerprint: (name) => setting.listings.current(name),
        }),
      );
    } catch (cause) {
      setting.warn({
        type: 'tool-skipped',
        tool: definition.name,
        message: `mcpClient: skipped remote tool ${JSON.stringify(definition.name)}: its definition is unusable: ${(cause as Error)?.message ?? String(cause)}`,
        cause,
      });
    }
  }
  return usable;
}
