/**
 * Hostile input to the approval inbox (`inbox()` and `serveInbox()`): nothing a caller
 * sends may crash the process, decide a call it should not, or amplify into a huge
 * response.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { inbox, memoryStore, serveInbox } from '../../src/ai/session/index.ts';
import { shop, suspendOn } from '../ai/session/inbox/fixtures.ts';

const ORIGIN = 'http://127.0.0.1:9999';

async function setup() {
  const shopped = shop(memoryStore());
  await suspendOn(shopped.runs, 'refund', { orderId: 'o-1' }, 'run-1');
  const handle = inbox({ session: shopped.runs });
  const page = await (await handle(new Request(`${ORIGIN}/`))).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const post = (path: string, body: string) =>
    handle(
      new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
    );
  return { ...shopped, handle, csrf, post };
}

describe('hostile requests to the inbox', () => {
  it('ignores prototype keys and repeated fields in a form', async () => {
    const { post, csrf, executions } = await setup();
    const response = await post(
      '/runs/run-1/calls/refund_1',
      `__proto__=x&constructor=y&csrf=${csrf}&action=reject&action=approve&note=a&note=b`,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Rejected.');
    expect(executions.refund).toBe(0);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('answers a path or query of megabytes with a short 4xx page, never echoing it whole', async () => {
    const { handle } = await setup();
    const long = 'a'.repeat(1_000_000);
    for (const path of [`/runs/${long}`, `/?status=${long}`, `/${long}`]) {
      const response = await handle(new Request(`${ORIGIN}${path}`));
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect((await response.text()).length).toBeLessThan(5_000);
    }
    const filtered = await handle(new Request(`${ORIGIN}/?tool=${long}`));
    expect((await filtered.text()).length).toBeLessThan(10_000);
  });

  it('refuses path tricks: encoded slashes, dot segments, NUL', async () => {
    const { handle, post, csrf, executions } = await setup();
    expect((await handle(new Request(`${ORIGIN}/runs/..%2F..%2Fetc`))).status).toBe(404);
    expect((await handle(new Request(`${ORIGIN}/runs/%00`))).status).toBe(400);
    expect(
      (await post('/runs/run-1/calls/refund_1%00', `csrf=${csrf}&action=approve`)).status,
    ).toBe(400);
    expect(executions.refund).toBe(0);
  });

  it('never redirects off-site after taking the token, whatever the path', async () => {
    const { runs } = await setup();
    const handle = inbox({ session: runs, token: 'sesame-123' });
    const entry = await handle(new Request(`${ORIGIN}//evil.example/x?token=sesame-123`));
    expect(entry.status).toBe(303);
    expect(entry.headers.get('location')).toBe('/evil.example/x');
  });

  it('caps live-update streams and closes them when the client leaves', async () => {
    const { handle } = await setup();
    const clients = Array.from({ length: 100 }, () => new AbortController());
    const streams = await Promise.all(
      clients.map((c) => handle(new Request(`${ORIGIN}/events`, { signal: c.signal }))),
    );
    expect(streams.every((s) => s.status === 200)).toBe(true);
    expect((await handle(new Request(`${ORIGIN}/events`))).status).toBe(503);
    clients[0].abort();
    const again = new AbortController();
    const next = await handle(new Request(`${ORIGIN}/events`, { signal: again.signal }));
    expect(next.status).toBe(200);
    for (const c of [...clients, again]) c.abort();
  });

  it('survives a client that sends a huge body to the Node server and hangs up', async () => {
    const { runs } = await setup();
    const server = await serveInbox({ session: runs });
    try {
      const { port } = new URL(server.url);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/runs/run-1/calls/refund_1',
            headers: {
              origin: `http://127.0.0.1:${port}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on('error', reject);
        const chunk = Buffer.alloc(64 * 1024, 97);
        for (let i = 0; i < 4; i++) req.write(chunk);
      });
      expect(status).toBe(413);
      expect((await fetch(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
