/**
 * Content mapping between fino content parts and MCP content blocks, both ways.
 * See docs/decisions/041 for the choices where the two vocabularies differ.
 */
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { ContentPart, ToolResultObject } from '../../task/index.ts';

/** The parts of a tool result, always as an array. */
export function resultParts(content: ToolResultObject['content']): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [content];
}

/** One fino content part as an MCP content block. */
export function toMcpContent(part: ContentPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mediaType };
    case 'audio':
      return { type: 'audio', data: part.data, mimeType: part.mediaType };
    case 'document':
      return {
        type: 'resource',
        resource: {
          uri: `fino:document/${encodeURIComponent(part.name ?? 'document')}`,
          mimeType: part.mediaType,
          blob: part.data,
        },
      };
    case 'resource':
      if (part.text !== undefined) {
        return {
          type: 'resource',
          resource: { uri: part.uri, mimeType: part.mediaType, text: part.text },
        };
      }
      if (part.data !== undefined) {
        return {
          type: 'resource',
          resource: { uri: part.uri, mimeType: part.mediaType, blob: part.data },
        };
      }
      return { type: 'resource_link', uri: part.uri, name: part.uri, mimeType: part.mediaType };
    default:
      return { type: 'text', text: JSON.stringify(part) };
  }
}

/** One MCP content block as a fino content part. */
export function fromMcpContent(block: ContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', mediaType: block.mimeType, data: block.data };
    case 'audio':
      return { type: 'audio', mediaType: block.mimeType, data: block.data };
    case 'resource': {
      const { uri, mimeType } = block.resource;
      const part: ContentPart = { type: 'resource', uri };
      if (mimeType !== undefined) part.mediaType = mimeType;
      if ('text' in block.resource && typeof block.resource.text === 'string') {
        part.text = block.resource.text;
      } else if ('blob' in block.resource && typeof block.resource.blob === 'string') {
        part.data = block.resource.blob;
      }
      return part;
    }
    case 'resource_link': {
      const part: ContentPart = { type: 'resource', uri: block.uri };
      if (block.mimeType !== undefined) part.mediaType = block.mimeType;
      return part;
    }
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

/** A fino tool result as an MCP `tools/call` result; `isError` is kept. */
export function toCallToolResult(result: ToolResultObject): CallToolResult {
  const mapped: CallToolResult = { content: resultParts(result.content).map(toMcpContent) };
  if (result.isError) mapped.isError = true;
  return mapped;
}

/** A failed MCP result carrying one message. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
