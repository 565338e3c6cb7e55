import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { progressNotifier } from '../../../../src/ai/mcp/server/progress-notifier.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

/** Reports 1..steps of steps, yielding between updates, then answers. */
const copy = tool({
  name: 'copy',
  parameters: v.object({ steps: v.number() }),
  execute: async ({ steps }, ctx) => {
    for (let done = 1; done <= steps; done++) {
      await new Promise((resolve) => setImmediate(resolve));
      ctx.progress({ progress: done, total: steps, message: `file ${done}` });
    }
    return `copied ${steps}`;
  },
});

type Update = { progress: number; total?: number; message?: string };
const expectIncreasingAndComplete = (updates: Update[], steps: number) => {
  expect(updates.length).toBeGreaterThan(0);
  expect(updates.at(-1)).toEqual({ progress: steps, total: steps, message: `file ${steps}` });
  for (let i = 1; i < updates.length; i++) {
    expect(updates[i]!.progress).toBeGreaterThan(updates[i - 1]!.progress);
  }
};

let http: McpHttpServer;
beforeAll(async () => {
  http = await mcpServer({ name: 'progress', version: '1.0.0', tools: [copy] }).listen({
    port: 0,
  });
});
afterAll(() => http.close());

describe('ctx.progress() over MCP', () => {
  it('reaches a v2 client that asked for progress, the last update before the result', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({ name: 'progress', version: '1.0.0', tools: [copy] }).connect(serverSide);
    const client = new Client({ name: 'v2', version: '1.0.0' });
    await client.connect(clientSide);
    const updates: Update[] = [];
    const result = await client.callTool(
      { name: 'copy', arguments: { steps: 50 } },
      { onprogress: (update) => updates.push(update) },
    );
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'copied 50' }]);
    expectIncreasingAndComplete(updates, 50);
    // 50 updates in quick succession are throttled.
    expect(updates.length).toBeLessThan(50);
  });

  it('reaches the official v1 client over Streamable HTTP', async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' });
    await client.connect(new V1HttpTransport(new URL(http.url)));
    const updates: Update[] = [];
    const result = await client.callTool({ name: 'copy', arguments: { steps: 5 } }, undefined, {
      onprogress: (update) => updates.push(update),
    });
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'copied 5' }]);
    expectIncreasingAndComplete(updates, 5);
  });

  it('sends nothing to a client that sent no progress token, and the call still works', async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' });
    await client.connect(new V1HttpTransport(new URL(http.url)));
    const result = await client.callTool({ name: 'copy', arguments: { steps: 3 } });
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'copied 3' }]);
  });
});

describe('progressNotifier', () => {
  afterEach(() => vi.useRealTimers());

  const fakeContext = (sent: unknown[]) =>
    ({
      mcpReq: {
        _meta: { progressToken: 'p1' },
        notify: async (notification: { params: unknown }) => {
          sent.push(notification.params);
        },
      },
    }) as never;

  it('sends at most one update per 100 ms, holding back the latest, and drops non-increasing ones', async () => {
    vi.useFakeTimers();
    const sent: unknown[] = [];
    const notifier = progressNotifier(fakeContext(sent))!;
    notifier.report({ progress: 1 });
    notifier.report({ progress: 2 });
    notifier.report({ progress: 3, message: 'three' });
    notifier.report({ progress: 3, message: 'again' });
    notifier.report({ progress: 2 });
    expect(sent).toEqual([{ progressToken: 'p1', progress: 1 }]);
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toEqual([
      { progressToken: 'p1', progress: 1 },
      { progressToken: 'p1', progress: 3, message: 'three' },
    ]);
    notifier.report({ progress: 4 });
    await notifier.flush();
    expect(sent.at(-1)).toEqual({ progressToken: 'p1', progress: 4 });
  });

  it('is undefined for a request without a usable progress token', () => {
    expect(progressNotifier({ mcpReq: {} } as never)).toBeUndefined();
    for (const progressToken of [{}, null, [1], true]) {
      expect(progressNotifier({ mcpReq: { _meta: { progressToken } } } as never)).toBeUndefined();
    }
  });
});

describe('ctx.progress() checks its argument', () => {
  it('throws a TypeError naming the field', async () => {
    const bad = tool({
      name: 'bad',
      throwOnError: true,
      execute: (_args, ctx) => {
        ctx.progress({ progress: Number.NaN });
        return 'unreachable';
      },
    });
    await expect(bad.invoke({})).rejects.toThrow(
      'progress.progress: expected a finite number ≥ 0, received number NaN',
    );
    const received: unknown[] = [];
    const good = tool({
      name: 'good',
      execute: (_args, ctx) => {
        ctx.progress({ progress: 1, total: 2, message: 'x'.repeat(600) });
        return 'ok';
      },
    });
    await good.invoke({}, { progress: (update) => received.push(update) });
    expect(received).toEqual([{ progress: 1, total: 2, message: 'x'.repeat(500) }]);
  });
});
