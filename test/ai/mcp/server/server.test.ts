import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { CLIENT_KINDS, connectClient } from '../fixtures/clients.ts';
import {
  add,
  ask,
  echo,
  fail,
  PIXEL_PNG,
  pixel,
  remove,
  slow,
  slowCalls,
} from '../fixtures/tools.ts';

const tools = [echo, add, fail, pixel, slow, remove, ask];
const text = (result: any) => result.content.map((c: any) => c.text ?? `[${c.type}]`).join('\n');
const accept = (content: Record<string, string | boolean>) => () => ({
  action: 'accept' as const,
  content,
});

let http: McpHttpServer;
beforeAll(async () => {
  http = await mcpServer({ name: 'test', version: '1.0.0', tools }).listen({ port: 0 });
});
afterAll(() => http.close());

describe.each(CLIENT_KINDS)('mcpServer over Streamable HTTP, %s client', (kind) => {
  it('lists each tool with its JSON Schema, annotations and output schema', async () => {
    const client = await connectClient(kind, { url: http.url });
    const { tools: listed } = await client.listTools();
    await client.close();
    const byName = Object.fromEntries(listed.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(tools.map((t) => t.name));
    expect(byName.echo).toMatchObject({
      title: 'Echo',
      description: 'Repeat a text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
    });
    expect(byName.remove.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(byName.fail.annotations).toBeUndefined();
    // requiresApproval travels as fino's hint in _meta (decision 051).
    expect(byName.remove._meta).toEqual({ 'fino/requiresApproval': true });
    expect(byName.echo._meta).toBeUndefined();
    expect(byName.add.outputSchema).toMatchObject({
      type: 'object',
      properties: { sum: { type: 'number' } },
    });
  });

  it('calls a tool, keeps isError, maps images and gives structured content', async () => {
    const client = await connectClient(kind, { url: http.url });
    expect(text(await client.callTool('echo', { text: 'hi' }))).toBe('echo: hi');
    const failed = await client.callTool('fail', {});
    expect(failed.isError).toBe(true);
    expect(text(failed)).toBe('the disk is full');
    const image = await client.callTool('pixel', {});
    expect(image.content).toEqual([
      { type: 'image', mimeType: 'image/png', data: PIXEL_PNG },
      { type: 'text', text: 'a pixel' },
    ]);
    expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    await client.close();
  });

  it('answers invalid arguments with a repairable isError result', async () => {
    const client = await connectClient(kind, { url: http.url });
    const result = await client.callTool('echo', { text: 42 });
    await client.close();
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Invalid arguments for "echo"');
    expect(text(result)).toContain('text');
  });

  it('answers an unknown tool with a JSON-RPC error naming the available tools', async () => {
    const client = await connectClient(kind, { url: http.url });
    await expect(client.callTool('nope', {})).rejects.toThrow(/Unknown tool "nope".*echo/);
    await client.close();
  });

  it('serves 100 concurrent calls, each with its own answer', async () => {
    const client = await connectClient(kind, { url: http.url });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.callTool('add', { a: i, b: 1 })),
    );
    await client.close();
    expect(results.map((r) => r.structuredContent.sum)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
  });

  it('aborts the running tool when the client cancels the call', async () => {
    const client = await connectClient(kind, { url: http.url });
    const before = slowCalls.aborted.length;
    const controller = new AbortController();
    const call = client.callTool('slow', {}, controller.signal);
    await waitFor(() => slowCalls.running > 0);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => slowCalls.aborted.length > before);
    await client.close();
  });

  it('refuses an approval-gated call when the client cannot elicit, without running it', async () => {
    const client = await connectClient(kind, { url: http.url });
    const result = await client.callTool('remove', { id: 'r1' });
    const suspended = await client.callTool('ask', {});
    await client.close();
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/requires approval.*cannot ask.*not executed/);
    // Not a dead end: the refusal names the ways around a client that cannot ask.
    expect(text(result)).toContain(
      "serve with approval: 'client' (fino mcp --approval client, npm start -- --approval client)",
    );
    expect(text(result)).toContain(
      'declare "remove" with execution: \'task-optional\' so a call made as a task waits for approval from "fino sessions approve" or the inbox (fino sessions serve)',
    );
    expect(suspended.isError).toBe(true);
    expect(text(suspended)).toMatch(/paused for input \("Which colour\?"\).*cannot answer/);
    expect(text(suspended)).toContain('--approval client');
  });
});

describe.each(CLIENT_KINDS)(
  'approval and suspension through elicitation over HTTP, %s client',
  (kind) => {
    it('runs the call when the user approves, showing the tool and its arguments', async () => {
      const asked: string[] = [];
      const subjects: unknown[] = [];
      const client = await connectClient(kind, { url: http.url }, (params) => {
        asked.push(params.message);
        subjects.push(params._meta?.['fino/approval']);
        return { action: 'accept', content: { approve: true } };
      });
      const result = await client.callTool('remove', { id: 'r1' });
      await client.close();
      expect(asked).toEqual(['Allow "remove" (destructive) with {"id":"r1"}?']);
      // The call the approval is about, for a fino client to match (decision 051).
      expect(subjects).toEqual([{ tool: 'remove', arguments: { id: 'r1' } }]);
      expect(text(result)).toBe('removed r1');
    });

    it('does not run the call when the user rejects or declines', async () => {
      for (const answer of [
        { action: 'accept' as const, content: { approve: false } },
        { action: 'decline' as const },
      ]) {
        const client = await connectClient(kind, { url: http.url }, () => answer);
        const result = await client.callTool('remove', { id: 'r1' });
        await client.close();
        expect(result.isError).toBe(true);
        expect(text(result)).toBe('The user rejected the call to "remove". It was not executed.');
      }
    });

    it("continues a suspended call with the user's answer as resumeValue", async () => {
      const client = await connectClient(kind, { url: http.url }, accept({ answer: 'red' }));
      const result = await client.callTool('ask', {});
      await client.close();
      expect(text(result)).toBe('colour: red');
    });
  },
);

describe('approval modes', () => {
  it("'deny' refuses approval-gated calls even from a client that can elicit", async () => {
    const denying = await mcpServer({ name: 't', version: '1', tools, approval: 'deny' }).listen();
    const client = await connectClient(
      'v2 (2026-07-28)',
      { url: denying.url },
      accept({ approve: true }),
    );
    const result = await client.callTool('remove', { id: 'r1' });
    const suspended = await client.callTool('ask', {});
    await client.close();
    await denying.close();
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("approval: 'deny'");
    expect(suspended.isError).toBe(true);
    expect(text(suspended)).toMatch(/paused for input \("Which colour\?"\).*approval: 'deny'/);
  });

  it("'client' trusts the client's own confirmation and runs the call", async () => {
    const trusting = await mcpServer({
      name: 't',
      version: '1',
      tools,
      approval: 'client',
    }).listen();
    const client = await connectClient('v2 (2025 era)', { url: trusting.url });
    const result = await client.callTool('remove', { id: 'r1' });
    await client.close();
    await trusting.close();
    expect(text(result)).toBe('removed r1');
  });

  it('rejects an unknown mode and tools that are not fino tasks', () => {
    expect(() => mcpServer({ name: 't', version: '1', tools, approval: 'maybe' as never })).toThrow(
      /approval: expected 'elicit', 'client' or 'deny'/,
    );
    expect(() => mcpServer({ name: 't', version: '1', tools: [{ name: 'x' }] as never })).toThrow(
      /tools\[0\]: expected a fino Task or Tool/,
    );
    expect(() => mcpServer(undefined as never)).toThrow(/expected \{ name, version, tools \}/);
    expect(() => mcpServer({ name: 't', version: '1', tools: 'echo' as never })).toThrow(
      /tools: expected an array of fino tools, received string "echo"/,
    );
    expect(() => mcpServer({ name: 't', version: '1', tools: [echo, echo] })).toThrow(
      /two tools are named "echo"/,
    );
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
