/**
 * A document a tool returns reaches `mcpClient()`'s caller as a document part (not a
 * resource), from a fino server over Streamable HTTP and from another server's PDF.
 */
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { expect, it } from 'vitest';
import { httpTransport, mcpClient, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

const report = tool({
  name: 'report',
  description: 'Returns the report as a PDF.',
  parameters: v.object({}),
  sideEffects: false,
  execute: () => ({
    content: [
      { type: 'text' as const, text: 'Here is the report.' },
      {
        type: 'document' as const,
        mediaType: 'application/pdf',
        data: 'JVBERi0xLjQK',
        name: 'Q3 report.pdf',
      },
    ],
  }),
});

it('from a fino server over HTTP', async () => {
  const http = await mcpServer({ name: 'docs', version: '1.0.0', tools: [report] }).listen();
  const client = mcpClient({ transport: httpTransport({ url: http.url }) });
  try {
    const [remote] = await client.tools();
    const result = await remote.invoke({});
    expect(result.content).toEqual([
      { type: 'text', text: 'Here is the report.' },
      {
        type: 'document',
        mediaType: 'application/pdf',
        data: 'JVBERi0xLjQK',
        name: 'Q3 report.pdf',
      },
    ]);
  } finally {
    await client.close();
    await http.close();
  }
});

it('from another server that embeds a PDF', async () => {
  const server = new McpServer({ name: 'other', version: '1.0.0' });
  server.registerTool('fetch_pdf', { description: 'Fetches a PDF.' }, () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'https://files.test/invoices/2026-11.pdf',
          mimeType: 'application/pdf',
          blob: 'JVBERi0x',
        },
      },
    ],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = mcpClient({ transport: clientSide });
  try {
    const [remote] = await client.tools();
    expect((await remote.invoke({})).content).toEqual([
      { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0x', name: '2026-11.pdf' },
    ]);
  } finally {
    await client.close();
  }
});
