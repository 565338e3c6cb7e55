/**
 * The calls OpenAI's servers ran during a Responses turn (web search, file search, code
 * interpreter, remote MCP, …), as provider-neutral parts marked `provider: 'openai'`.
 */
import { randomUUID } from 'node:crypto';
import { type ContentPart, isRecord, parseToolArgs } from '../core/index.ts';
import { mcpToolName } from './provider-tools.ts';

type Item = Record<string, unknown>;

const PROVIDER = 'openai';

/**
 * A call OpenAI's servers ran (web search, file search, code interpreter, remote MCP, …)
 * as a `tool_use` part and its `tool_result`, both marked `provider: 'openai'`; the item
 * rides on the `tool_use` part and goes back as it came.
 */
export function serverCallParts(item: Item): ContentPart[] {
  const id = stringOf(item.id) || `${stringOf(item.type)}_${randomUUID()}`;
  const { name, args } = serverCallOf(item);
  const failed = item.status === 'failed' || (item.error !== undefined && item.error !== null);
  const result: ContentPart = {
    type: 'tool_result',
    toolCallId: id,
    content: serverResultText(item),
    provider: PROVIDER,
  };
  if (failed) result.isError = true;
  return [
    {
      type: 'tool_use',
      id,
      name,
      args,
      provider: PROVIDER,
      providerMetadata: { openai: { item } },
    },
    result,
  ];
}

function serverCallOf(item: Item): { name: string; args: unknown } {
  switch (item.type) {
    case 'web_search_call':
      return { name: 'web_search', args: isRecord(item.action) ? item.action : {} };
    case 'file_search_call':
      return { name: 'file_search', args: { queries: item.queries ?? [] } };
    case 'code_interpreter_call':
      return { name: 'code_interpreter', args: { code: item.code ?? '' } };
    case 'mcp_call':
      return {
        name: mcpToolName(stringOf(item.server_label)),
        args: { tool: stringOf(item.name), arguments: parsedArgs(item.arguments) },
      };
    case 'mcp_list_tools':
      return { name: mcpToolName(stringOf(item.server_label)), args: { list_tools: true } };
    default:
      return { name: stringOf(item.type).replace(/_call$/, ''), args: {} };
  }
}

function serverResultText(item: Item): string {
  switch (item.type) {
    case 'web_search_call': {
      const action = isRecord(item.action) ? item.action : {};
      return Array.isArray(action.sources)
        ? JSON.stringify(action.sources)
        : `web search ${stringOf(item.status)}`;
    }
    case 'file_search_call':
      return Array.isArray(item.results)
        ? JSON.stringify(item.results)
        : `file search ${stringOf(item.status)}`;
    case 'code_interpreter_call':
      return Array.isArray(item.outputs)
        ? JSON.stringify(item.outputs)
        : `code interpreter ${stringOf(item.status)}`;
    case 'mcp_call':
      return item.error ? String(JSON.stringify(item.error)) : stringOf(item.output);
    case 'mcp_list_tools':
      return JSON.stringify(
        (Array.isArray(item.tools) ? item.tools : []).map((t) => (isRecord(t) ? t.name : t)),
      );
    default:
      return stringOf(item.status);
  }
}

/** A call's argument text parsed, or the text itself when it is not JSON. */
export function parsedArgs(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  const parsed = parseToolArgs(text);
  return parsed.argsError === undefined ? parsed.args : text;
}

/** A value when it is a string, else `''`. */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
