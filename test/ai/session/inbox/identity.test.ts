/**
 * Who decides in the inbox (issue 32, item 18; decision 188): the host's `identify` hook
 * says who is signed in — the pages show it, the audit trail records its id, the forms
 * ask for no name and a request it does not know gets 401 — and, with nothing to vouch
 * for a name, the typed one is recorded marked unverified.
 */
import { describe, expect, it } from 'vitest';
import {
  headerIdentity,
  type InboxOptions,
  inbox,
  memoryStore,
} from '../../../../src/ai/session/index.ts';
import { browserLike, shop, suspendOn } from './fixtures.ts';

const ORIGIN = 'http://127.0.0.1:9999';

async function setup(options: Partial<InboxOptions> = {}) {
  const shopped = shop(memoryStore());
  const handle = inbox({ session: shopped.runs, ...options });
  await suspendOn(shopped.runs, 'refund', { orderId: 'o-1' }, 'run-1');
  return { ...shopped, handle, ...browserLike(handle, ORIGIN) };
}

describe('inbox: who decides', () => {
  it('with identify, shows who is signed in, records their id and asks no name', async () => {
    const sessions = new Map([['s-1', { id: 'ana@example.com', name: 'Ana Lima' }]]);
    const { runs, get, post, csrfOf } = await setup({
      // The host app's session cookie, read asynchronously as a session store would be.
      identify: async (request) => {
        const sid = /(?:^|; )app_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
        return sid === undefined ? undefined : sessions.get(sid);
      },
    });
    const cookie = { cookie: 'app_session=s-1' };
    const page = await (await get('/', cookie)).text();
    expect(page).toContain('Signed in as <strong>Ana Lima</strong>');
    expect(page).not.toContain('name="by"');
    expect(page).not.toContain('Log out'); // the host's login, not the inbox's
    const decided = await post(
      '/runs/run-1/calls/refund_1',
      { csrf: await csrfOf('/', cookie), action: 'approve', by: 'mallory' },
      cookie,
    );
    expect(decided.status).toBe(200);
    expect((await runs.get('run-1'))?.audit?.[0]).toMatchObject({
      action: 'approve',
      by: 'ana@example.com',
    });
  });

  it('with identify, refuses with 401 a request nobody is signed in for, page or form', async () => {
    const { runs, get, post, executions } = await setup({
      identify: headerIdentity('X-Forwarded-User'),
    });
    const page = await get('/');
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('Not signed in');
    expect((await get('/runs/run-1')).status).toBe(401);
    expect((await get('/inbox.css')).status).toBe(200);
    const forged = await post('/runs/run-1/calls/refund_1', { action: 'approve' });
    expect(forged.status).toBe(401);
    expect((await runs.get('run-1'))?.status).toBe('suspended');
    expect(executions.refund).toBe(0);
  });

  it('headerIdentity reads the proxy’s header; the id is what it says', async () => {
    const { runs, get, post, csrfOf } = await setup({
      identify: headerIdentity('X-Forwarded-User'),
    });
    const as = { 'x-forwarded-user': ' bo ' };
    expect(await (await get('/', as)).text()).toContain('Signed in as <strong>bo</strong>');
    await post('/runs/run-1/calls/refund_1', { csrf: await csrfOf('/', as), action: 'reject' }, as);
    expect((await runs.get('run-1'))?.audit?.[0]).toMatchObject({
      action: 'reject',
      by: 'bo',
      note: 'Rejected by bo in the approval inbox',
    });
  });

  it('with a token and identify, the token opens the inbox and the identity names who decides', async () => {
    const { get } = await setup({ token: 'shared-secret', identify: () => ({ id: 'ana' }) });
    expect((await get('/')).status).toBe(401);
    const cookie = (await get('/?token=shared-secret')).headers.get('set-cookie')!.split(';')[0];
    const page = await (await get('/', { cookie })).text();
    expect(page).toContain('Signed in as <strong>ana</strong>');
    expect(page).toContain('Log out');
  });

  it('an identify that fails or answers nonsense is a 500 the server is told of, naming what was wrong', async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    const broken = await setup({ identify: () => ({ id: '' }), onError });
    expect((await broken.get('/')).status).toBe(500);
    expect(String(errors[0])).toContain(
      'inbox({ identify }): expected { id, name? } of 1 to 200 printable characters each, or undefined',
    );
    const throwing = await setup({
      identify: () => {
        throw new Error('session store down');
      },
      onError,
    });
    expect((await throwing.get('/')).status).toBe(500);
    expect(String(errors[1])).toContain('session store down');
  });

  it('without any identity, records the typed name marked unverified, and says so on the form', async () => {
    const { runs, get, post, csrfOf } = await setup();
    expect(await (await get('/')).text()).toContain('Your name (optional, not verified)');
    await post('/runs/run-1/calls/refund_1', {
      csrf: await csrfOf(),
      action: 'approve',
      by: 'ana',
    });
    expect((await runs.get('run-1'))?.audit?.[0].by).toBe('ana (unverified)');
  });

  it('refuses identify with tokens or by, or that is no function; headerIdentity a bad name', () => {
    const { runs } = shop(memoryStore());
    const identify = () => ({ id: 'ana' });
    expect(() => inbox({ session: runs, identify, tokens: { ana: 'ana-secret-1' } })).toThrow(
      'inbox({ identify }): expected identify alone, received identify with tokens',
    );
    expect(() => inbox({ session: runs, identify, by: 'x' })).toThrow('received identify with by');
    expect(() => inbox({ session: runs, identify: 'ana' as never })).toThrow(
      'inbox({ identify }): expected a function of the request',
    );
    expect(() => headerIdentity('X User')).toThrow(
      'headerIdentity(name): expected an HTTP header name such as "X-Forwarded-User", received string "X User"',
    );
  });
});
