/**
 * The inbox handler with plain `Request` objects, no browser: escaping, the token and
 * its cookie, CSRF, Origin, bad requests and decisions.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LOGINS } from '../../../../src/ai/session/inbox/logins.ts';
import { inbox, memoryStore, session } from '../../../../src/ai/session/index.ts';
import { browserLike, shop, suspendOn } from './fixtures.ts';

const ORIGIN = 'http://127.0.0.1:9999';
const HOSTILE = '<img src=x onerror=window.__pwned=1></script><script>window.__pwned=2</script>';

async function setup(
  options: { token?: string; tokens?: Record<string, string>; by?: string } = {},
) {
  const store = memoryStore();
  const shopped = shop(store);
  const handle = inbox({ session: shopped.runs, ...options });
  const { get, post, csrfOf } = browserLike(handle, ORIGIN);
  return { ...shopped, store, handle, get, post, csrfOf };
}

describe('inbox handler', () => {
  it('lists pending calls with their tool, arguments, risk and effects, escaped', async () => {
    const { runs, get } = await setup();
    await suspendOn(runs, 'refund', { orderId: HOSTILE }, 'run-1');
    const response = await get('/');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('refund');
    expect(text).toContain('destructive');
    expect(text).toContain('side effects yes');
    expect(text).toContain(
      '&lt;img src=x onerror=window.__pwned=1&gt;&lt;/script&gt;&lt;script&gt;',
    );
    expect(text).not.toContain('<img');
    expect(text).not.toMatch(/<script>/);
    expect(text).toContain('action="/runs/run-1/calls/refund_1"');
  });

  it('lists the newest suspension first', async () => {
    const { runs, get } = await setup();
    for (const id of ['run-old', 'run-mid', 'run-new']) {
      await suspendOn(runs, 'refund', { orderId: id }, id);
    }
    const text = await (await get('/')).text();
    expect([...text.matchAll(/<article[^>]* data-run="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'run-new',
      'run-mid',
      'run-old',
    ]);
  });

  it('sends a strict Content-Security-Policy and the other security headers on every page', async () => {
    const { get } = await setup();
    for (const path of ['/', '/nope', '/inbox.js', '/inbox.css']) {
      const { headers } = await get(path);
      expect(headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('same-origin');
    }
    expect((await get('/inbox.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
    const page = await (await get('/')).text();
    expect(page).not.toMatch(/<script>|<script [^>]*>[^<]|\son[a-z]+=/);
  });

  it('filters by tool and status with query parameters', async () => {
    const { runs, get } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-1' }, 'run-r');
    await suspendOn(runs, 'ask_size', {}, 'run-a');
    const onlyAsk = await (await get('/?tool=ask_size')).text();
    expect(onlyAsk).toContain('Which size?');
    expect(onlyAsk).not.toContain('o-1');
    const none = await (await get('/?status=done')).text();
    expect(none).toContain('No runs.');
    expect((await get('/?status=bogus')).status).toBe(400);
  });

  it('approves with a valid form from its own origin, and continues the run', async () => {
    const { runs, post, csrfOf, executions } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-2' }, 'run-2');
    const csrf = await csrfOf();
    const response = await post('/runs/run-2/calls/refund_1', {
      csrf,
      action: 'approve',
      by: 'ana',
      note: 'ok',
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('Approved. The run is now done.');
    expect(text).toContain('Finished: refunded o-2');
    expect(executions.refund).toBe(1);
    const second = await post('/runs/run-2/calls/refund_1', { csrf, action: 'approve', by: 'bo' });
    expect(second.status).toBe(409);
    expect(await second.text()).toMatch(
      /Already decided by ana \(unverified\) at \d{4}-\d\d-\d\dT[^ ]+ \(approve: ok\)/,
    );
    expect(executions.refund).toBe(1);
  });

  it('rejects with a reason, or a default one when the field is empty', async () => {
    const { runs, post, csrfOf } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-3' }, 'run-3');
    const text = await (
      await post('/runs/run-3/calls/refund_1', {
        csrf: await csrfOf(),
        action: 'reject',
        by: 'ana',
      })
    ).text();
    expect(text).toContain('Rejected. The run is now done.');
    const run = await runs.get('run-3');
    expect(run?.audit?.[0]).toMatchObject({
      action: 'reject',
      by: 'ana (unverified)',
      note: 'Rejected by ana (unverified) in the approval inbox',
    });
  });

  it('answers a suspension, checking the answer against its declared schema', async () => {
    const { runs, post, csrfOf } = await setup();
    await suspendOn(runs, 'ask_size', {}, 'run-4');
    const csrf = await csrfOf();
    const bad = await post('/runs/run-4/calls/ask_size_1', {
      csrf,
      action: 'answer',
      answer: '"XL"',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('does not match the schema');
    const notJson = await post('/runs/run-4/calls/ask_size_1', {
      csrf,
      action: 'answer',
      answer: 'M',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.text()).toContain('Expected the answer as JSON');
    const good = await post('/runs/run-4/calls/ask_size_1', {
      csrf,
      action: 'answer',
      answer: '"M"',
    });
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('Finished: size M');
  });

  it('declines a suspension with Reject and a reason', async () => {
    const { runs, post, csrfOf } = await setup();
    await suspendOn(runs, 'ask_size', {}, 'run-decline');
    const response = await post('/runs/run-decline/calls/ask_size_1', {
      csrf: await csrfOf(),
      action: 'reject',
      note: 'customer left',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Rejected. The run is now done.');
    const run = await runs.get('run-decline');
    expect(run?.status === 'done' && run.text).toContain('customer left');
  });

  it('refuses a POST from another origin, or without one, with 403 and decides nothing', async () => {
    const { runs, post, csrfOf, executions } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-5' }, 'run-5');
    const csrf = await csrfOf();
    const evil = await post(
      '/runs/run-5/calls/refund_1',
      { csrf, action: 'approve' },
      { origin: 'http://evil.example' },
    );
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain(
      'expected origin http://127.0.0.1:9999, received http://evil.example',
    );
    const handle = inbox({ session: runs });
    const none = await handle(
      new Request(`${ORIGIN}/runs/run-5/calls/refund_1`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${csrf}&action=approve`,
      }),
    );
    expect(none.status).toBe(403);
    expect(executions.refund).toBe(0);
    expect((await runs.get('run-5'))?.status).toBe('suspended');
  });

  it('refuses a POST with a missing or forged CSRF token', async () => {
    const { runs, post, executions } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-6' }, 'run-6');
    expect((await post('/runs/run-6/calls/refund_1', { action: 'approve' })).status).toBe(403);
    const forged = await post('/runs/run-6/calls/refund_1', {
      csrf: 'x'.repeat(43),
      action: 'approve',
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('bad CSRF token');
    const otherInbox = inbox({ session: runs });
    const foreign = /name="csrf" value="([^"]+)"/.exec(
      await (await otherInbox(new Request(`${ORIGIN}/`))).text(),
    )?.[1];
    expect(
      (await post('/runs/run-6/calls/refund_1', { csrf: foreign ?? '', action: 'approve' })).status,
    ).toBe(403);
    expect(executions.refund).toBe(0);
  });

  it('answers unknown paths, malformed ids, bad methods and huge bodies with 4xx pages', async () => {
    const { runs, get, post, handle, csrfOf } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-7' }, 'run-7');
    const csrf = await csrfOf();
    expect((await get('/nope')).status).toBe(404);
    expect((await get('/runs/unknown')).status).toBe(404);
    expect((await get('/runs/%E0%A4%A')).status).toBe(400);
    expect((await get(`/runs/${'a'.repeat(300)}`)).status).toBe(400);
    expect((await get('/runs/a%00b')).status).toBe(400);
    expect((await get('/runs/a/b/c')).status).toBe(404);
    expect((await post('/runs/run-7/calls/nope', { csrf, action: 'approve' })).status).toBe(404);
    expect((await post('/runs/run-7/calls/refund_1', { csrf, action: 'explode' })).status).toBe(
      400,
    );
    expect((await post('/elsewhere', { csrf })).status).toBe(404);
    const huge = await post('/runs/run-7/calls/refund_1', {
      csrf,
      action: 'approve',
      note: 'x'.repeat(70_000),
    });
    expect(huge.status).toBe(413);
    const json = await handle(
      new Request(`${ORIGIN}/runs/run-7/calls/refund_1`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(json.status).toBe(415);
    expect((await handle(new Request(`${ORIGIN}/`, { method: 'DELETE' }))).status).toBe(405);
    expect((await runs.get('run-7'))?.status).toBe('suspended');
  });

  it('stops a streamed body once it passes 64 KB, without reading the rest', async () => {
    const { runs, handle } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-8' }, 'run-8');
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(16 * 1024).fill(97));
      },
    });
    const response = await handle(
      new Request(`${ORIGIN}/runs/run-8/calls/refund_1`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('requires the token: a 401 page without it, then a login cookie (never the token) and a clean URL', async () => {
    const { get } = await setup({ token: 'sesame-123' });
    const denied = await get('/');
    expect(denied.status).toBe(401);
    expect(await denied.text()).toContain('needs its token');
    expect((await get('/?token=wrong-token')).status).toBe(401);
    const entry = await get('/?token=sesame-123&tool=refund');
    expect(entry.status).toBe(303);
    expect(entry.headers.get('location')).toBe('/?tool=refund');
    const cookie = entry.headers.get('set-cookie') ?? '';
    // Named after the port, holding a random login id, ending after 12 hours.
    expect(cookie).toMatch(
      /^fino_inbox_9999=[\w-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    expect(cookie).not.toContain('sesame-123');
    const login = cookie.split(';')[0];
    const inside = await get('/?tool=refund', { cookie: `other=1; ${login}` });
    expect(inside.status).toBe(200);
    // The old cookie, holding the token itself, opens nothing; nor does another port's name.
    expect((await get('/', { cookie: 'fino_inbox_token=sesame-123' })).status).toBe(401);
    expect((await get('/', { cookie: 'fino_inbox_9999=sesame-123' })).status).toBe(401);
    expect((await get('/', { cookie: login.replace('9999', '9998') })).status).toBe(401);
    expect((await get('/inbox.css')).status).toBe(200);
  });

  it(`keeps at most ${MAX_LOGINS} logins: past that the oldest must log in again`, async () => {
    const { get } = await setup({ token: 'sesame-123' });
    const loginOf = async () =>
      (await get('/?token=sesame-123')).headers.get('set-cookie')!.split(';')[0];
    const first = await loginOf();
    const second = await loginOf();
    for (let i = 2; i < MAX_LOGINS; i++) await loginOf();
    expect((await get('/', { cookie: first })).status).toBe(200);
    const newest = await loginOf();
    expect((await get('/', { cookie: newest })).status).toBe(200);
    // `first` was just used, but the table is ordered by login: the oldest made room.
    expect((await get('/', { cookie: first })).status).toBe(401);
    expect((await get('/', { cookie: second })).status).toBe(200);
  });

  it('over HTTPS names the cookie __Host- and marks it Secure, on / whatever the base path', async () => {
    const runs = shop(memoryStore()).runs;
    const handle = inbox({
      session: runs,
      token: 'sesame-123',
      basePath: '/inbox',
      loginMs: 60_000,
    });
    const entry = await handle(new Request('https://inbox.example/inbox/?token=sesame-123'));
    expect(entry.headers.get('set-cookie')).toMatch(
      /^__Host-fino_inbox_443=[\w-]{43}; Path=\/; Max-Age=60; HttpOnly; SameSite=Strict; Secure$/,
    );
  });

  it('logs out: the login ends and its cookie is deleted', async () => {
    const { get, post } = await setup({ token: 'sesame-123' });
    const login = (await get('/?token=sesame-123')).headers.get('set-cookie')!.split(';')[0];
    const page = await (await get('/', { cookie: login })).text();
    expect(page).toContain('action="/logout"');
    const csrf = /action="\/logout"><input type="hidden" name="csrf" value="([^"]+)"/.exec(
      page,
    )?.[1];
    // A forged log-out (no CSRF value) changes nothing.
    expect((await post('/logout', {}, { cookie: login })).status).toBe(403);
    expect((await get('/', { cookie: login })).status).toBe(200);
    const out = await post('/logout', { csrf: csrf! }, { cookie: login });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^fino_inbox_9999=; Path=\/; Max-Age=0;/);
    expect(await out.text()).toContain('You are logged out');
    expect((await get('/', { cookie: login })).status).toBe(401);
  });

  it("binds a form's CSRF value to its login: another login's value is refused", async () => {
    const { runs, get, post, executions } = await setup({ token: 'sesame-123' });
    await suspendOn(runs, 'refund', { orderId: 'o-csrf' }, 'run-csrf');
    const loginOf = async () =>
      (await get('/?token=sesame-123')).headers.get('set-cookie')!.split(';')[0];
    const [a, b] = [await loginOf(), await loginOf()];
    const csrfOfA = /name="csrf" value="([^"]+)"/.exec(
      await (await get('/', { cookie: a })).text(),
    )![1];
    const crossed = await post(
      '/runs/run-csrf/calls/refund_1',
      { csrf: csrfOfA, action: 'approve' },
      { cookie: b },
    );
    expect(crossed.status).toBe(403);
    expect(executions.refund).toBe(0);
  });

  it('with a token per approver records who really decided, whatever name the form sends', async () => {
    const { runs, get, post, executions } = await setup({
      tokens: { ana: 'ana-secret-1', bo: 'bo-secret-22' },
    });
    await suspendOn(runs, 'refund', { orderId: 'o-ana' }, 'run-ana');
    await suspendOn(runs, 'refund', { orderId: 'o-bo' }, 'run-bo');
    const loginOf = async (token: string) =>
      (await get(`/?token=${token}`)).headers.get('set-cookie')!.split(';')[0];
    const ana = await loginOf('ana-secret-1');
    const bo = await loginOf('bo-secret-22');
    const page = await (await get('/', { cookie: ana })).text();
    expect(page).toContain('Signed in as <strong>ana</strong>');
    expect(page).not.toContain('name="by"');
    const csrf = (cookie: string) =>
      get('/', { cookie }).then(
        async (r) => /name="csrf" value="([^"]+)"/.exec(await r.text())![1],
      );
    await post(
      '/runs/run-ana/calls/refund_1',
      { csrf: await csrf(ana), action: 'approve', by: 'mallory' },
      { cookie: ana },
    );
    await post(
      '/runs/run-bo/calls/refund_1',
      { csrf: await csrf(bo), action: 'reject', by: 'ana' },
      { cookie: bo },
    );
    expect((await runs.get('run-ana'))?.audit?.[0]).toMatchObject({ action: 'approve', by: 'ana' });
    expect((await runs.get('run-bo'))?.audit?.[0]).toMatchObject({ action: 'reject', by: 'bo' });
    expect(executions.refund).toBe(1);
    expect((await get('/?token=ana-secret-2')).status).toBe(401);
  });

  it('lists finished runs with their tools and answers, and says how long calls have waited', async () => {
    const { runs, get, post, csrfOf } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-list' }, 'run-list');
    const waiting = await (await get('/')).text();
    expect(waiting).toMatch(
      /waiting since <time datetime="[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC" data-ago>just now<\/time>/,
    );
    await post('/runs/run-list/calls/refund_1', { csrf: await csrfOf(), action: 'approve' });
    const done = await (await get('/?status=done')).text();
    expect(done).toContain(
      '<td class="tools">refund</td><td class="answer">Finished: refunded o-list</td>',
    );
    const run = await (await get('/runs/run-list')).text();
    expect(run).toContain('<span class="role">Tool result</span>');
    expect(run).not.toMatch(/<span class="role">User<\/span><pre>← refunded/);
  });

  it('serves under a base path', async () => {
    const { runs } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-9' }, 'run-9');
    const handle = inbox({ session: runs, basePath: '/inbox/' });
    const text = await (await handle(new Request(`${ORIGIN}/inbox/`))).text();
    expect(text).toContain('href="/inbox/inbox.css"');
    expect(text).toContain('action="/inbox/runs/run-9/calls/refund_1"');
    expect((await handle(new Request(`${ORIGIN}/`))).status).toBe(404);
    expect((await handle(new Request(`${ORIGIN}/inboxes/`))).status).toBe(404);
  });

  it('names the decider from the `by` option instead of asking', async () => {
    const { runs, post, csrfOf } = await setup({ by: 'ops-team' });
    await suspendOn(runs, 'refund', { orderId: 'o-10' }, 'run-10');
    const csrf = await csrfOf();
    await post('/runs/run-10/calls/refund_1', { csrf, action: 'approve', by: 'mallory' });
    expect((await runs.get('run-10'))?.audit?.[0].by).toBe('ops-team');
  });

  it('shows a run: transcript, status, usage and audit trail', async () => {
    const { runs, get, post, csrfOf } = await setup();
    await suspendOn(runs, 'refund', { orderId: 'o-11' }, 'run-11');
    await post('/runs/run-11/calls/refund_1', {
      csrf: await csrfOf(),
      action: 'approve',
      by: 'ana',
      note: 'fine <b>',
    });
    const text = await (await get('/runs/run-11')).text();
    expect(text).toContain(
      '<div id="run-body" data-src="/runs/run-11" data-events="/events" data-final="true">',
    );
    expect(text).toContain('<span id="run-status">done</span>');
    expect(text).toMatch(/<li>usage \d+ in, \d+ out, \d+ tokens, cost unknown<\/li>/);
    expect(text).toContain('→ refund(');
    expect(text).toContain('← refunded o-11');
    expect(text).toMatch(
      /<td>approved<\/td><td><span class="id" title="refund_1">refund<\/span><\/td><td>ana \(unverified\)<\/td><td>fine &lt;b&gt;<\/td>/,
    );
  });

  it('says a decided run without an agent waits for a worker, and nothing happens until one runs', async () => {
    const store = memoryStore();
    const shopped = shop(store);
    await suspendOn(shopped.runs, 'refund', { orderId: 'o-12' }, 'run-12');
    // The inbox without the agent, as `fino sessions serve` without --agent.
    const { post, csrfOf, get } = browserLike(inbox({ session: session({ store }) }), ORIGIN);
    const decided = await post('/runs/run-12/calls/refund_1', {
      csrf: await csrfOf(),
      action: 'approve',
    });
    const text = await decided.text();
    expect(text).toContain('Approved. The run is ready and waits for a worker.');
    expect(text).toContain('Nothing happens until a worker runs');
    await shopped.runs.drain();
    const done = await (await get('/runs/run-12')).text();
    expect(done).toContain('<span id="run-status">done</span>');
    expect(done).not.toContain('Nothing happens until a worker runs');
  });

  it('rejects bad options with clear errors', () => {
    expect(() => inbox({} as never)).toThrow(
      'session: expected a Session (from session({ store })), received undefined',
    );
    const runs = shop(memoryStore()).runs;
    expect(() => inbox({ session: runs, token: 'short' })).toThrow(
      'at least 8 characters, received 5 characters',
    );
    expect(() => inbox({ session: runs, tokens: { ana: 'short' } })).toThrow(
      'inbox({ tokens.ana }): expected a string of at least 8 characters, received 5 characters',
    );
    expect(() =>
      inbox({ session: runs, tokens: { ana: 'same-secret', bo: 'same-secret' } }),
    ).toThrow('expected a different token for each approver');
    expect(() => inbox({ session: runs, tokens: { ana: 'ana-secret-1' }, by: 'x' })).toThrow(
      'expected tokens alone, received tokens with by',
    );
    expect(() => inbox({ session: runs, tokens: {} })).toThrow('expected at least one approver');
    expect(() => inbox({ session: runs, basePath: 'x"><' })).toThrow(
      'expected a path such as "/inbox"',
    );
    expect(() => inbox({ session: runs, pollMs: 0 })).toThrow(RangeError);
  });
});
