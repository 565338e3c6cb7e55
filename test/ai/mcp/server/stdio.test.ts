/**
 * The official SDK clients (v2 in both protocol eras, v1) spawn `fino mcp` — the built
 * `bin/fino.js`, so run `npm run build` first (`npm test` does) — and use its tools.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { CLIENT_KINDS, connectClient, type Target, type TestClient } from '../fixtures/clients.ts';
import { PIXEL_PNG } from '../fixtures/tools.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'bin/fino.js');
const fixture = fileURLToPath(new URL('../fixtures/tools.ts', import.meta.url));
const text = (result: any) => result.content.map((c: any) => c.text ?? `[${c.type}]`).join('\n');

const scratch = tempDir('mcp-stdio');
beforeAll(() => {
  if (!existsSync(join(root, 'dist/cli/index.js'))) {
    throw new Error('dist/ is missing: run "npm run build" before these tests (npm test does)');
  }
});

const target = (env: Record<string, string> = {}): Target => ({
  command: process.execPath,
  args: [bin, 'mcp', fixture],
  env: { ...(process.env as Record<string, string>), ...env },
});

// Every spawn compiles the fixture's TypeScript, so each client kind shares one process.
describe.each(CLIENT_KINDS)('fino mcp over stdio, %s client', (kind) => {
  const marker = () => join(scratch, `aborted-${kind.replace(/\W+/g, '-')}`);
  let client: TestClient;
  beforeAll(async () => {
    client = await connectClient(kind, target({ FINO_TEST_ABORT_FILE: marker() }), (params) => {
      const content: Record<string, string | boolean> = params.message.startsWith('Allow')
        ? { approve: true }
        : { answer: 'blue' };
      return { action: 'accept', content };
    });
  });
  afterAll(() => client.close());

  it('lists the tools and calls them: text, isError, images, validation failures', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['add', 'ask', 'echo', 'fail', 'pixel', 'remove', 'slow'].sort(),
    );
    expect(text(await client.callTool('echo', { text: 'hi' }))).toBe('echo: hi');
    expect(await client.callTool('fail', {})).toMatchObject({ isError: true });
    expect((await client.callTool('pixel', {})).content[0]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PIXEL_PNG,
    });
    const invalid = await client.callTool('add', { a: 'one', b: 2 });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/Invalid arguments for "add"[\s\S]*\ba\b/);
  });

  it('serves 100 concurrent calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.callTool('echo', { text: String(i) })),
    );
    expect(results.map(text)).toEqual(Array.from({ length: 100 }, (_, i) => `echo: ${i}`));
  });

  it('aborts the running tool on notifications/cancelled', async () => {
    const controller = new AbortController();
    const call = client.callTool('slow', {}, controller.signal);
    await waitFor(() => existsSync(`${marker()}.started`));
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => existsSync(marker()));
    expect(text(await client.callTool('echo', { text: 'after' }))).toBe('echo: after');
  });

  it("asks for approval, and for a suspended tool's answer, through elicitation", async () => {
    expect(text(await client.callTool('remove', { id: 'r9' }))).toBe('removed r9');
    expect(text(await client.callTool('ask', {}))).toBe('colour: blue');
  });
});

describe('fino mcp over stdio, a client that cannot elicit', () => {
  it('gets a refusal for an approval-gated tool, never a silent run', async () => {
    const mute = await connectClient('v1', target());
    const refused = await mute.callTool('remove', { id: 'r9' });
    await mute.close();
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/requires approval.*not executed/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
