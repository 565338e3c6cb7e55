/**
 * Sampling messages whose content is an array of parts (MCP 2025-11-25), both ways:
 * `ctx.sample` on a fino server sends text, image and audio parts as MCP blocks (to the
 * official SDK client and to `mcpClient`), `sampleWith` hands them to the model as fino
 * parts; bad parts and too many parts are refused with an error naming the part or the
 * limit, on the server before anything is sent and on the client before `onSample`.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpClient, mcpServer, sampleWith } from '../../../../src/ai/mcp/index.ts';
import { MAX_SAMPLING_PARTS } from '../../../../src/ai/mcp/protocol/sampling-content.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import type { ContentPart } from '../../../../src/task/index.ts';
import { v } from '../../../../src/validate/index.ts';

const PICTURE: ContentPart[] = [
  { type: 'text', text: 'What is in this picture, and what do you hear?' },
  { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
  { type: 'audio', mediaType: 'audio/wav', data: 'UklGRg==' },
];

/** A fino server whose tool samples with `content` and reports what came back. */
async function serverSampling(content: unknown) {
  const look = tool({
    name: 'look',
    parameters: v.object({}),
    execute: async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: content as ContentPart[] }],
        maxTokens: 50,
      });
      return JSON.stringify(answer.content);
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcpServer({ name: 'eyes', version: '1.0.0', tools: [look] }).connect(serverSide);
  return clientSide;
}

describe('ctx.sample with an array of parts', () => {
  it('sends text, image and audio as MCP blocks to the official SDK client, and takes an image back', async () => {
    const client = new Client(
      { name: 'sdk', version: '1.0.0' },
      { capabilities: { sampling: {} } },
    );
    const seen: unknown[] = [];
    client.setRequestHandler('sampling/createMessage', (request) => {
      seen.push(request.params.messages);
      return {
        model: 'm',
        role: 'assistant',
        content: { type: 'image', mimeType: 'image/jpeg', data: '/9j/' },
      };
    });
    await client.connect(await serverSampling(PICTURE));
    const result = await client.callTool({ name: 'look', arguments: {} });
    expect(seen).toEqual([
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: PICTURE[0].type === 'text' ? PICTURE[0].text : '' },
            { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
            { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
          ],
        },
      ],
    ]);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: JSON.stringify({ type: 'image', mediaType: 'image/jpeg', data: '/9j/' }),
      },
    ]);
    await client.close();
  });

  it('reaches the model of mcpClient({ onSample: sampleWith(model) }) as fino parts', async () => {
    const model = scriptedModel(['A cat, purring.']);
    const client = mcpClient({
      transport: await serverSampling(PICTURE),
      onSample: sampleWith(model),
    });
    try {
      const [look] = await client.tools();
      await look.invoke({});
      expect(model.requests[0].messages).toEqual([{ role: 'user', content: PICTURE }]);
    } finally {
      await client.close();
    }
  });

  for (const [label, content, says] of [
    [
      'an unknown part type',
      [PICTURE[0], { type: 'video', mediaType: 'video/mp4', data: 'AAAA' }],
      'ctx.sample: messages[0].content[1]: expected a text, image or audio part',
    ],
    [
      'an image without its media type',
      [{ type: 'image', data: 'AAAA' }],
      'ctx.sample: messages[0].content[0]: expected a text, image or audio part',
    ],
    [
      'an empty array',
      [],
      'ctx.sample: messages[0].content: expected a string, a part or a non-empty array',
    ],
    [
      `more than ${MAX_SAMPLING_PARTS} parts`,
      Array.from({ length: MAX_SAMPLING_PARTS + 1 }, () => PICTURE[0]),
      `ctx.sample: a sampling request may carry at most ${MAX_SAMPLING_PARTS} content parts`,
    ],
  ] as const) {
    it(`refuses ${label} before asking the client`, async () => {
      let asked = 0;
      const client = mcpClient({
        transport: await serverSampling(content),
        onSample: () => {
          asked++;
          return { model: 'm', role: 'assistant', content: { type: 'text', text: 'no' } };
        },
      });
      try {
        const [look] = await client.tools();
        const result = await look.invoke({});
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toContain(says);
        expect(asked).toBe(0);
      } finally {
        await client.close();
      }
    });
  }
});

/** An SDK server whose tool sends `messages` as a sampling request, answering with the outcome. */
async function sdkServerSampling(messages: unknown[]) {
  const server = new McpServer({ name: 'sdk-server', version: '1.0.0' });
  server.registerTool('ask', { description: 'samples' }, async (ctx) => {
    const answer = await ctx.mcpReq
      .requestSampling({ messages: messages as never, maxTokens: 10 })
      .then(
        (result) => JSON.stringify(result.content),
        (error: Error) => `refused: ${error.message}`,
      );
    return { content: [{ type: 'text', text: answer }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientSide;
}

describe("mcpClient's sampling handler with arrays of parts", () => {
  const text = { type: 'text', text: 'hi' };

  it('gives sampleWith an array of blocks as fino parts', async () => {
    const model = scriptedModel(['Seen.']);
    const transport = await sdkServerSampling([
      { role: 'user', content: [text, { type: 'image', mimeType: 'image/png', data: 'iVBO' }] },
    ]);
    const client = mcpClient({ transport, onSample: sampleWith(model) });
    try {
      const [ask] = await client.tools();
      expect((await ask.invoke({})).content).toEqual([
        { type: 'text', text: JSON.stringify({ type: 'text', text: 'Seen.' }) },
      ]);
      expect(model.requests[0].messages[0].content).toEqual([
        { type: 'text', text: 'hi' },
        { type: 'image', mediaType: 'image/png', data: 'iVBO' },
      ]);
    } finally {
      await client.close();
    }
  });

  for (const [label, messages, says] of [
    [
      `more than ${MAX_SAMPLING_PARTS} parts over its messages`,
      [
        { role: 'user', content: Array.from({ length: MAX_SAMPLING_PARTS }, () => text) },
        { role: 'user', content: text },
      ],
      `mcpClient: a sampling request may carry at most ${MAX_SAMPLING_PARTS} content parts`,
    ],
    [
      'a tool_use part (this client offers no tools to sampling)',
      [
        { role: 'user', content: text },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'x', input: {} }] },
      ],
      'mcpClient: messages[1].content[0]: expected a text, image or audio part',
    ],
  ] as const) {
    it(`refuses a request with ${label} before onSample`, async () => {
      let asked = 0;
      const client = mcpClient({
        transport: await sdkServerSampling(messages as unknown as unknown[]),
        onSample: () => {
          asked++;
          return { model: 'm', role: 'assistant', content: text as never };
        },
      });
      try {
        const [ask] = await client.tools();
        const answer = JSON.stringify((await ask.invoke({})).content);
        expect(answer).toContain('refused: ');
        expect(answer).toContain(says);
        expect(asked).toBe(0);
      } finally {
        await client.close();
      }
    });
  }
});
