import { describe, expect, it } from 'vitest';
import {
  fromMcpContent,
  resultParts,
  toCallToolResult,
  toMcpContent,
} from '../../../../src/ai/mcp/protocol/content.ts';
import type { ContentPart } from '../../../../src/task/index.ts';

describe('content mapping', () => {
  const parts: ContentPart[] = [
    { type: 'text', text: 'hello' },
    { type: 'image', mediaType: 'image/png', data: 'aGk=' },
    { type: 'audio', mediaType: 'audio/wav', data: 'aGk=' },
    { type: 'resource', uri: 'file:///a.txt', mediaType: 'text/plain', text: 'A' },
    { type: 'resource', uri: 'file:///b.bin', mediaType: 'application/octet-stream', data: 'aGk=' },
  ];

  it('maps text, image, audio and embedded resources both ways without loss', () => {
    expect(parts.map(toMcpContent).map(fromMcpContent)).toEqual(parts);
  });

  it('uses MCP field names on the wire', () => {
    expect(toMcpContent(parts[1])).toEqual({ type: 'image', mimeType: 'image/png', data: 'aGk=' });
    expect(toMcpContent(parts[3])).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' },
    });
  });

  it('sends a document as an embedded blob resource named after the file', () => {
    const block = toMcpContent({
      type: 'document',
      mediaType: 'application/pdf',
      data: 'JVBE',
      name: 'r 1.pdf',
    });
    expect(block).toEqual({
      type: 'resource',
      resource: { uri: 'fino:document/r%201.pdf', mimeType: 'application/pdf', blob: 'JVBE' },
    });
  });

  it('reads a document back as a document part, and any PDF blob resource as one', () => {
    const document: ContentPart = {
      type: 'document',
      mediaType: 'application/pdf',
      data: 'JVBE',
      name: 'r 1.pdf',
    };
    expect(fromMcpContent(toMcpContent(document))).toEqual(document);
    expect(
      fromMcpContent({
        type: 'resource',
        resource: {
          uri: 'https://x.test/files/q3%20report.pdf?v=2',
          mimeType: 'application/pdf',
          blob: 'JVBE',
        },
      }),
    ).toEqual({
      type: 'document',
      mediaType: 'application/pdf',
      data: 'JVBE',
      name: 'q3 report.pdf',
    });
    // Other blobs, and a PDF given as text, stay resources.
    expect(
      fromMcpContent({
        type: 'resource',
        resource: { uri: 'https://x.test/a.pdf', mimeType: 'application/pdf', text: 'not a blob' },
      }).type,
    ).toBe('resource');
    expect(
      fromMcpContent({
        type: 'resource',
        resource: { uri: 'fino:document/%E0%A4%A', mimeType: 'text/plain', blob: 'aGk=' },
      }),
    ).toEqual({ type: 'document', mediaType: 'text/plain', data: 'aGk=', name: '%E0%A4%A' });
  });

  it('reads a resource link as a resource without contents', () => {
    expect(fromMcpContent({ type: 'resource_link', uri: 'https://x.test/a', name: 'a' })).toEqual({
      type: 'resource',
      uri: 'https://x.test/a',
    });
  });

  it('keeps isError and accepts every shape of result content', () => {
    expect(toCallToolResult({ content: 'boom', isError: true })).toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    expect(toCallToolResult({ content: { type: 'text', text: 'ok' } })).toEqual({
      content: [{ type: 'text', text: 'ok' }],
    });
    expect(resultParts([])).toEqual([]);
  });
});
