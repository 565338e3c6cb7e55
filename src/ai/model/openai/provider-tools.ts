/**
 * `openai.tools`: the tools OpenAI's servers run for the model (Responses API only),
 * given to an agent beside fino tools.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import type { ProviderTool } from '../core/index.ts';

/** Options of {@link openaiTools.webSearch}. */
export interface WebSearchOptions {
  /** How much context the search gathers (`low`, `medium`, `high`). */
  searchContextSize?: 'low' | 'medium' | 'high';
  /** Only these domains (e.g. `['openai.com']`). */
  allowedDomains?: string[];
  /** Roughly where the user is, to localise results. */
  userLocation?: { country?: string; region?: string; city?: string; timezone?: string };
}

/** Options of {@link openaiTools.mcp}. */
export interface McpToolOptions {
  /** The remote MCP server's URL (`https://…`). */
  serverUrl: string;
  /**
   * A label for the server (letters, digits, `_`, `-`): the tool is named `mcp_<label>`
   * in the run. Default: from the URL's host (`mcp.deepwiki.com` → `deepwiki`).
   */
  serverLabel?: string;
  /**
   * Which calls OpenAI asks approval for before running them: `'always'` (default) or
   * `'never'`, or `{ never: ['tool', …] }` to skip asking for those tools. An asked call
   * suspends the run with a pending approval; `resume()` answers it.
   */
  requireApproval?: 'always' | 'never' | { never: string[] };
  /** Only these of the server's tools. */
  allowedTools?: string[];
  /** Headers for the server (e.g. its own `Authorization`). */
  headers?: Record<string, string>;
}

const OPENAI = 'openai';
const LABEL = /^[A-Za-z0-9_-]{1,40}$/;

/** The run's name for the remote MCP server labelled `label`. */
export function mcpToolName(label: string): string {
  return `mcp_${label}`;
}

function providerTool(name: string, wire: Record<string, unknown>): ProviderTool {
  return Object.freeze({ type: 'provider', provider: OPENAI, name, wire: Object.freeze(wire) });
}

function fail(what: string, expected: string, value: unknown): never {
  throw new TypeError(
    `openai.tools.${what}: expected ${expected}, received ${describeValue(value)}`,
  );
}

function stringList(what: string, value: unknown, nonEmpty: boolean): string[] {
  if (
    !Array.isArray(value) ||
    (nonEmpty && value.length === 0) ||
    !value.every((v) => typeof v === 'string' && v !== '')
  ) {
    fail(what, `${nonEmpty ? 'a non-empty' : 'an'} array of non-empty strings`, value);
  }
  return [...value];
}

/**
 * Tools OpenAI's servers run for the model, for `openai({ api: 'responses' })` (the
 * default for api.openai.com). Pass them to `agent({ tools })` beside fino tools; their
 * calls and results appear in the run's messages (`tool_use` / `tool_result` parts with
 * `provider: 'openai'`) and as `tool-call` / `tool-result` events.
 *
 * @example
 * ```ts
 * import { openai } from 'fino:ai/model';
 *
 * const tools = [
 *   openai.tools.webSearch({ searchContextSize: 'low' }),
 *   openai.tools.fileSearch({ vectorStoreIds: ['vs_123'] }),
 *   openai.tools.codeInterpreter(),
 *   openai.tools.mcp({ serverUrl: 'https://mcp.deepwiki.com/mcp', requireApproval: 'always' }),
 * ];
 * console.log(tools.map((t) => t.name)); // ['web_search', 'file_search', 'code_interpreter', 'mcp_deepwiki']
 * ```
 */
export const openaiTools = {
  /** Web search (`{ type: 'web_search' }`); sources come back on the call's result. */
  webSearch(options: WebSearchOptions = {}): ProviderTool {
    const wire: Record<string, unknown> = { type: 'web_search' };
    if (options.searchContextSize !== undefined) {
      if (!['low', 'medium', 'high'].includes(options.searchContextSize)) {
        fail('webSearch.searchContextSize', "'low', 'medium' or 'high'", options.searchContextSize);
      }
      wire.search_context_size = options.searchContextSize;
    }
    if (options.allowedDomains !== undefined) {
      wire.filters = {
        allowed_domains: stringList('webSearch.allowedDomains', options.allowedDomains, true),
      };
    }
    if (options.userLocation !== undefined) {
      wire.user_location = { type: 'approximate', ...options.userLocation };
    }
    return providerTool('web_search', wire);
  },

  /** Search over your vector stores (`{ type: 'file_search', vector_store_ids }`). */
  fileSearch(options: { vectorStoreIds: string[]; maxNumResults?: number }): ProviderTool {
    const ids = stringList('fileSearch.vectorStoreIds', options?.vectorStoreIds, true);
    const wire: Record<string, unknown> = { type: 'file_search', vector_store_ids: ids };
    if (options.maxNumResults !== undefined) {
      if (!Number.isInteger(options.maxNumResults) || options.maxNumResults < 1) {
        fail('fileSearch.maxNumResults', 'a positive integer', options.maxNumResults);
      }
      wire.max_num_results = options.maxNumResults;
    }
    return providerTool('file_search', wire);
  },

  /** Python in an OpenAI-hosted container (`{ type: 'code_interpreter', container }`). */
  codeInterpreter(options: { container?: string; fileIds?: string[] } = {}): ProviderTool {
    let container: unknown = { type: 'auto' };
    if (options.container !== undefined) {
      if (typeof options.container !== 'string' || options.container === '') {
        fail('codeInterpreter.container', 'a container id', options.container);
      }
      container = options.container;
    } else if (options.fileIds !== undefined) {
      container = {
        type: 'auto',
        file_ids: stringList('codeInterpreter.fileIds', options.fileIds, false),
      };
    }
    return providerTool('code_interpreter', { type: 'code_interpreter', container });
  },

  /**
   * A remote MCP server OpenAI calls for the model (`{ type: 'mcp', server_url, … }`).
   * Its approval requests become pending approvals of the run (tool `mcp_<label>`, args
   * `{ tool, arguments }`); approving or rejecting sends OpenAI `mcp_approval_response`.
   */
  mcp(options: McpToolOptions): ProviderTool {
    const url = options?.serverUrl;
    let host: string;
    try {
      host = new URL(String(url)).hostname;
    } catch {
      fail('mcp.serverUrl', 'an absolute URL', url);
    }
    if (typeof url !== 'string' || !/^https?:$/.test(new URL(url).protocol)) {
      fail('mcp.serverUrl', 'an http(s) URL', url);
    }
    const label = options.serverLabel ?? labelOf(host);
    if (typeof label !== 'string' || !LABEL.test(label)) {
      fail('mcp.serverLabel', `a label matching ${LABEL}`, label);
    }
    const wire: Record<string, unknown> = {
      type: 'mcp',
      server_label: label,
      server_url: url,
      require_approval: requireApprovalOf(options.requireApproval),
    };
    if (options.allowedTools !== undefined) {
      wire.allowed_tools = stringList('mcp.allowedTools', options.allowedTools, false);
    }
    if (options.headers !== undefined) wire.headers = { ...options.headers };
    return providerTool(mcpToolName(label), wire);
  },
};

function requireApprovalOf(value: McpToolOptions['requireApproval']): unknown {
  if (value === undefined || value === 'always' || value === 'never') return value ?? 'always';
  if (value !== null && typeof value === 'object' && Array.isArray(value.never)) {
    return { never: { tool_names: stringList('mcp.requireApproval.never', value.never, false) } };
  }
  return fail('mcp.requireApproval', "'always', 'never' or { never: [tool names] }", value);
}

/** `mcp.deepwiki.com` → `deepwiki`: the host's most telling label, made a valid server label. */
function labelOf(host: string): string {
  const parts = host.split('.').filter((p) => p !== '' && p !== 'mcp' && p !== 'www');
  const main = parts.length > 1 ? parts[parts.length - 2] : (parts[0] ?? 'server');
  return main.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'server';
}
