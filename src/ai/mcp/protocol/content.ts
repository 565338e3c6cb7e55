/**
 * Content mapping between fino content parts and MCP content blocks, both ways.
 * See docs/decisions/041 for the choices where the two vocabularies differ.
 */
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { ContentPart, ToolResultObject } from '../../../task/index.ts';

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
          uri: `${DOCUMENT_URI}${encodeURIComponent(part.name ?? 'document')}`,
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
      const document = documentOf(block.resource);
      if (document) return document;
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

/** The URI prefix of a document sent as an embedded resource (see {@link toMcpContent}). */
const DOCUMENT_URI = 'fino:document/';

/**
 * An embedded resource as the document it carries: fino's own documents
 * (`fino:document/<name>`), and any other PDF sent as a blob (named after the URI's last
 * segment), so a model reads them as documents; `undefined` for every other resource.
 */
function documentOf(resource: { uri: string; mimeType?: string; blob?: unknown }) {
  const { uri, mimeType, blob } = resource;
  if (typeof blob !== 'string' || mimeType === undefined) return undefined;
  const ours = uri.startsWith(DOCUMENT_URI);
  if (!ours && mimeType !== 'application/pdf') return undefined;
  const part: ContentPart = { type: 'document', mediaType: mimeType, data: blob };
  const name = ours ? safeDecode(uri.slice(DOCUMENT_URI.length)) : lastSegment(uri);
  if (name) part.name = name;
  return part;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The file name at the end of a URI (`https://x/files/report.pdf` → `report.pdf`), if any. */
const lastSegment = (uri: string) => {
  const path = uri.split(/[?#]/)[0];
  return safeDecode(path.slice(path.lastIndexOf('/') + 1)) || undefined;
};

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
