/**
 * examples/chat without a browser: the page type-checks against the DOM and the AI SDK's
 * types (its own tsconfig, as the root one has no DOM), the demo user comes from a cookie
 * or a header, the demo model streams its answers a few words at a time, and a wrong
 * command line is refused before the server listens.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEMO_USER, demoAuth } from '../../examples/chat/demo-auth.ts';
import { DEMO_ANSWER, demoModel } from '../../examples/chat/demo-model.ts';
import type { StreamEvent } from '../../src/ai/model/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const dir = tempDir('chat-example-cli');

const request = (headers: Record<string, string>) =>
  new Request('http://localhost/api/chat', { headers });

async function events(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe('examples/chat', () => {
  it('page.tsx type-checks with the DOM, React and the AI SDK', async () => {
    const tsc = join(root, 'node_modules/.bin/tsc');
    const result = await run(tsc, ['-p', join(root, 'examples/chat/tsconfig.json')]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('refuses a wrong command line with what was wrong and exit code 2, before listening', async () => {
    const server = (...args: string[]) =>
      run(
        process.execPath,
        [
          '--import',
          join(root, 'node_modules/tsx/dist/loader.mjs'),
          join(root, 'examples/chat/server.ts'),
          '--db',
          join(dir, 'never.db'),
          ...args,
        ],
        { env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') } },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
    const port = await server('--port', '70000');
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(
      /^fino: --port: expected a port number from 0 to 65535, received "70000"\n/,
    );
    const lease = await server('--lease-ms', '0');
    expect(lease.code).toBe(2);
    expect(lease.stderr).toMatch(
      /^fino: --lease-ms "0": session: leaseMs: expected a number of milliseconds/,
    );
  }, 60_000);

  it('takes the user from the header, else the cookie, else the demo user; a malformed name is no user', async () => {
    expect(await demoAuth(request({ 'x-demo-user': 'bo' }))).toEqual({ by: 'bo' });
    expect(await demoAuth(request({ cookie: 'a=1; fino_demo_user=ana%40shop' }))).toEqual({
      by: 'ana@shop',
    });
    expect(await demoAuth(request({}))).toEqual({ by: DEMO_USER });
    expect(await demoAuth(request({ 'x-demo-user': 'no spaces <b>' }))).toBeUndefined();
    expect(await demoAuth(request({ cookie: 'fino_demo_user=%E0%A4%A' }))).toBeUndefined();
  });

  it('streams its answer two words a delta, and asks for refund (approval) after the lookup', async () => {
    const model = demoModel({ delayMs: 1 });
    const answer = await events(model.stream({ messages: [{ role: 'user', content: 'Hi' }] }));
    const deltas = answer.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas[0].trim().split(' ')).toHaveLength(2);
    expect(deltas.join('')).toBe(DEMO_ANSWER.replace(/\s+/g, ' '));
    // The stream says what the result says: a thread stores the result's text.
    const stop = answer.at(-1);
    expect(stop?.type === 'stop' && stop.result.text).toBe(deltas.join(''));
    const asked = await model.generate({
      messages: [{ role: 'user', content: 'refund o-42 please' }],
    });
    expect(asked.toolCalls).toMatchObject([{ name: 'lookup_order', args: { orderId: 'o-42' } }]);
    const looked = await model.generate({
      messages: [
        { role: 'user', content: 'refund o-42 please' },
        asked.message,
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolCallId: asked.toolCalls[0].id,
              content: 'Order o-42: 2 items, 89 EUR, delivered',
            },
          ],
        },
      ],
    });
    expect(looked.toolCalls).toMatchObject([
      { name: 'refund', args: { orderId: 'o-42', amount: 89 } },
    ]);
  });
});
