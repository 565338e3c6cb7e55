/**
 * The inbox in a real browser: Debian's Chromium driven by playwright-core, over SQLite
 * and PostgreSQL. Skipped visibly when /usr/bin/chromium is missing (an error when
 * CI=true). Writes its screenshot to a temporary folder; with FINO_UPDATE_SCREENSHOT=1
 * it rewrites docs/inbox.png instead.
 */
import { existsSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  headerIdentity,
  type InboxServer,
  type Store,
  serveInbox,
  session,
  sqliteStore,
} from '../../../../src/ai/session/index.ts';
import { type OpenStore, sessionStores } from '../../../helpers/session-stores.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { shop, suspendOn } from './fixtures.ts';

const CHROMIUM = process.env.FINO_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const message = `${CHROMIUM} not found: the inbox's browser tests are skipped (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n*** ${message} ***\n`);
}

const HOSTILE = '<img src=x onerror=window.__pwned=1></script><script>window.__pwned=2</script>';
const TOKEN = 'inbox-test-token-1';

let browser: Browser | undefined;
const open = sessionStores('inbox');
const dir = tempDir('inbox-files');
let files = 0;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const STORES: Array<[string, OpenStore]> = [
  ['sqlite', open.sqlite],
  ['postgres', open.postgres],
];

interface Setup {
  store: Store;
  server: InboxServer;
  shopped: ReturnType<typeof shop>;
  /** The server's origin, e.g. http://127.0.0.1:40123. */
  origin: string;
  /** A new page already holding the token cookie, on the inbox. */
  open(path?: string, options?: { ownBrowser?: boolean; javaScript?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

async function setup(
  makeStore: OpenStore,
  options: { agent?: boolean } = {},
): Promise<Setup | undefined> {
  const store = await makeStore();
  if (!store || !browser) return undefined;
  const shopped = shop(store);
  const inboxSession = options.agent === false ? session({ store }) : shopped.runs;
  const server = await serveInbox({ session: inboxSession, token: TOKEN, pollMs: 100 });
  const origin = new URL(server.url).origin;
  const contexts: BrowserContext[] = [];
  const newContext = async (javaScriptEnabled = true) => {
    const context = await browser!.newContext({
      viewport: { width: 1000, height: 700 },
      javaScriptEnabled,
    });
    await login(context, server.url);
    contexts.push(context);
    return context;
  };
  const context = await newContext();
  return {
    store,
    server,
    shopped,
    origin,
    async open(path = '/', options: { ownBrowser?: boolean; javaScript?: boolean } = {}) {
      const page = await (options.ownBrowser
        ? await newContext(options.javaScript)
        : context
      ).newPage();
      await page.goto(`${origin}${path}`);
      return page;
    },
    async close() {
      for (const c of contexts) await c.close();
      await server.close();
      await store.close();
    },
  };
}

/** Logs a browser in as a user does: by opening the address with `?token=…` once. */
async function login(context: BrowserContext, url: string): Promise<void> {
  const page = await context.newPage();
  const response = await page.goto(url);
  if (response?.status() !== 200) throw new Error(`login at ${url}: ${response?.status()}`);
  await page.close();
}

/** The status of a GET / sent with this Host header (as after a DNS rebinding). */
const statusWithHost = (origin: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    request({ hostname, port, path: '/', headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });

/** The card of a pending call on the inbox page. */
const card = (page: Page, runId: string) => page.locator(`article.pending[data-run="${runId}"]`);

for (const [name, makeStore] of STORES) {
  describe(`the inbox in Chromium over ${name}`, () => {
    it.skipIf(!hasChromium)(
      'approves a call with a note: the run continues to done',
      async (ctx) => {
        const s = await setup(makeStore);
        if (!s) return ctx.skip();
        try {
          await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-100' }, 'run-approve');
          const page = await s.open();
          const pending = card(page, 'run-approve');
          await expect.poll(() => pending.locator('.tool').textContent()).toBe('refund');
          expect(await pending.textContent()).toContain('destructive');
          await pending.getByLabel('Note or reason (optional)').fill('customer called');
          await pending.getByLabel('Your name (optional, not verified)').fill('ana');
          await pending.getByRole('button', { name: 'Approve' }).click();
          await page.waitForURL(/\/runs\/run-approve\/calls\/refund_1$/);
          expect(await page.locator('.notice').textContent()).toBe(
            'Approved. The run is now done.',
          );
          expect(await page.locator('#run-status').textContent()).toBe('done');
          expect(await page.locator('main').textContent()).toContain('Finished: refunded o-100');
          const audit = await page.locator('table tbody tr').first().textContent();
          expect(audit).toContain('approved');
          expect(audit).toContain('ana (unverified)');
          expect(audit).toContain('customer called');
          expect(s.shopped.executions.refund).toBe(1);
        } finally {
          await s.close();
        }
      },
    );

    it.skipIf(!hasChromium)('rejects a call with a reason the model reads', async (ctx) => {
      const s = await setup(makeStore);
      if (!s) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-101' }, 'run-reject');
        const page = await s.open();
        const pending = card(page, 'run-reject');
        await pending.getByLabel('Note or reason (optional)').fill('not eligible');
        await pending.getByRole('button', { name: 'Reject' }).click();
        await page.waitForURL(/\/runs\/run-reject\//);
        expect(await page.locator('.notice').textContent()).toBe('Rejected. The run is now done.');
        expect(await page.locator('main').textContent()).toContain('not eligible');
        expect(s.shopped.executions.refund).toBe(0);
        const run = await s.shopped.runs.get('run-reject');
        expect(run?.status === 'done' && run.text).toContain('not eligible');
      } finally {
        await s.close();
      }
    });

    it.skipIf(!hasChromium)(
      'lets one of two pages racing to approve win; the other is told who decided',
      async (ctx) => {
        const s = await setup(makeStore);
        if (!s) return ctx.skip();
        try {
          await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-102' }, 'run-race');
          const [a, b] = await Promise.all([
            s.open(),
            s.open('/', { ownBrowser: true, javaScript: false }),
          ]);
          await a.locator('input[name=by]').first().fill('ana');
          await b.locator('input[name=by]').first().fill('bo');
          await Promise.all([
            card(a, 'run-race').getByRole('button', { name: 'Approve' }).click(),
            card(b, 'run-race').getByRole('button', { name: 'Approve' }).click(),
          ]);
          await Promise.all([a.waitForURL(/\/runs\//), b.waitForURL(/\/runs\//)]);
          const notices = [
            await a.locator('.notice').textContent(),
            await b.locator('.notice').textContent(),
          ];
          const winner = notices.indexOf('Approved. The run is now done.');
          expect(winner).not.toBe(-1);
          const loser = notices[1 - winner];
          const winnerName = winner === 0 ? 'ana' : 'bo';
          expect(loser).toMatch(
            new RegExp(
              `^Already decided by ${winnerName} \\(unverified\\) at \\d{4}-\\d\\d-\\d\\dT\\S+ \\(approve\\)\\. Nothing was changed\\.$`,
            ),
          );
          expect(s.shopped.executions.refund).toBe(1);
        } finally {
          await s.close();
        }
      },
    );
  });
}

describe('the inbox in Chromium', () => {
  const sqlite = STORES[0][1];

  it.skipIf(!hasChromium)('renders a model-written script injection as inert text', async (ctx) => {
    const s = await setup(sqlite);
    if (!s) return ctx.skip();
    try {
      await suspendOn(s.shopped.runs, 'refund', { orderId: HOSTILE }, 'run-hostile');
      for (const path of ['/', '/runs/run-hostile']) {
        const page = await s.open(path);
        await page.locator('main').waitFor();
        // The CSP would stop the handlers even if markup got through: count the elements too.
        expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
        expect(await page.locator('img').count()).toBe(0);
        expect(await page.locator('main').textContent()).toContain(HOSTILE);
        await page.close();
      }
    } finally {
      await s.close();
    }
  });

  it.skipIf(!hasChromium)(
    'answers a suspension, refusing an answer outside its schema, by keyboard',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'ask_size', {}, 'run-ask');
        const page = await s.open();
        const pending = card(page, 'run-ask');
        expect(await pending.textContent()).toContain('Which size?');
        await pending.getByLabel('Answer (JSON matching the schema)').fill('"XXL"');
        await pending.getByRole('button', { name: 'Send answer' }).focus();
        await page.keyboard.press('Enter');
        await page.waitForURL(/\/calls\//);
        expect(await page.locator('.notice').textContent()).toContain('does not match the schema');
        await page.goBack();
        await page.reload();
        await card(page, 'run-ask').getByLabel('Answer (JSON matching the schema)').fill('"M"');
        await card(page, 'run-ask').getByRole('button', { name: 'Send answer' }).press('Enter');
        await page.waitForURL(/\/calls\//);
        expect(await page.locator('#run-status').textContent()).toBe('done');
        expect(await page.locator('main').textContent()).toContain('Finished: size M');
      } finally {
        await s.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'follows the store live: new runs appear, decided ones go',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s) return ctx.skip();
      try {
        const page = await s.open();
        expect(await page.locator('#inbox-list').textContent()).toContain('Nothing waits');
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-live' }, 'run-live');
        await card(page, 'run-live').waitFor({ timeout: 10_000 });
        await s.shopped.runs.approve({ runId: 'run-live', toolCallId: 'refund_1' }, { by: 'cli' });
        await card(page, 'run-live').waitFor({ state: 'detached', timeout: 10_000 });
        expect(await page.locator('#inbox-list').textContent()).toContain('Nothing waits');
      } finally {
        await s.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'does not replace a form someone is typing in; the update waits until the fields are empty',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-typing' }, 'run-typing');
        const page = await s.open();
        const note = card(page, 'run-typing').getByLabel('Note or reason (optional)');
        await note.fill('half a thought');
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-new' }, 'run-new');
        await page.locator('#inbox-list[data-stale="true"]').waitFor({ timeout: 10_000 });
        expect(await note.inputValue()).toBe('half a thought');
        expect(await card(page, 'run-new').count()).toBe(0);
        await note.fill('');
        await note.blur();
        await card(page, 'run-new').waitFor({ timeout: 10_000 });
        expect(await page.locator('#inbox-list[data-stale]').count()).toBe(0);
      } finally {
        await s.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'without an agent records the decision; the run page shows a worker finish it',
    async (ctx) => {
      const s = await setup(sqlite, { agent: false });
      if (!s) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-worker' }, 'run-worker');
        const page = await s.open();
        await card(page, 'run-worker').getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/calls\//);
        expect(await page.locator('#run-status').textContent()).toBe('ready');
        // The page that reported the decision follows the run, as does a fresh run page.
        const runPage = await s.open('/runs/run-worker');
        await s.shopped.runs.drain();
        for (const p of [page, runPage]) {
          await expect
            .poll(() => p.locator('#run-status').textContent(), { timeout: 10_000 })
            .toBe('done');
          expect(await p.locator('main').textContent()).toContain('Finished: refunded o-worker');
        }
        expect(s.shopped.executions.refund).toBe(1);
      } finally {
        await s.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'requires the token: a 401 page without it, then a cookie and a clean address',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s || !browser) return ctx.skip();
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const denied = await page.goto(`${s.origin}/`);
        expect(denied?.status()).toBe(401);
        expect(await page.locator('main').textContent()).toContain('needs its token');
        const entry = await page.goto(s.server.url);
        expect(entry?.status()).toBe(200);
        expect(page.url()).toBe(`${s.origin}/`);
        const [cookie] = await context.cookies();
        expect(cookie).toMatchObject({
          name: `fino_inbox_${new URL(s.origin).port}`,
          httpOnly: true,
          sameSite: 'Strict',
        });
        expect(cookie.value).not.toContain(TOKEN);
        // It expires (about 12 hours from now), unlike a session cookie (-1).
        expect(cookie.expires * 1000).toBeGreaterThan(Date.now() + 11 * 3_600_000);
        expect(await page.evaluate('document.cookie')).toBe('');
        // Logging out ends the login: the next visit needs the token again.
        await page.getByRole('button', { name: 'Log out' }).click();
        await page.locator('text=You are logged out').waitFor();
        expect(await context.cookies()).toEqual([]);
        expect((await page.goto(`${s.origin}/`))?.status()).toBe(401);
      } finally {
        await context.close();
        await s.close();
      }
    },
  );

  it.skipIf(!hasChromium)('refuses a POST from a foreign origin with 403', async (ctx) => {
    const s = await setup(sqlite);
    if (!s) return ctx.skip();
    try {
      await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-evil' }, 'run-evil');
      const page = await s.open();
      const csrf = await page.locator('input[name=csrf]').first().inputValue();
      const [cookie] = await page.context().cookies();
      const response = await fetch(`${s.origin}/runs/run-evil/calls/refund_1`, {
        method: 'POST',
        headers: {
          origin: 'http://evil.example',
          cookie: `${cookie.name}=${cookie.value}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `csrf=${encodeURIComponent(csrf)}&action=approve`,
      });
      expect(response.status).toBe(403);
      expect(s.shopped.executions.refund).toBe(0);
      const rebound = await statusWithHost(s.origin, `evil.example:${new URL(s.origin).port}`);
      expect(rebound).toBe(421);
      expect(await statusWithHost(s.origin, `localhost:${new URL(s.origin).port}`)).toBe(401);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!hasChromium)(
    'is readable on a phone, and takes the screenshot of docs/inbox.png',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s || !browser) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'ask_size', {}, 'run_9a01');
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-2024-117' }, 'run_7f3c');
        const desktop = await s.open();
        // The committed picture changes only when asked: FINO_UPDATE_SCREENSHOT=1.
        const path =
          process.env.FINO_UPDATE_SCREENSHOT === '1'
            ? join(import.meta.dirname, '../../../../docs/inbox.png')
            : join(dir, 'inbox.png');
        await desktop.screenshot({ path });
        expect(statSync(path).size).toBeGreaterThan(10_000);
        const phone = await browser.newContext({
          viewport: { width: 375, height: 740 },
          isMobile: true,
        });
        await login(phone, s.server.url);
        const small = await phone.newPage();
        await small.goto(`${s.origin}/`);
        const overflow = await small.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await phone.close();
      } finally {
        await s.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'keeps two inboxes on two ports logged in, and never sends the token to a third server',
    async (ctx) => {
      if (!browser) return ctx.skip();
      const seen: string[] = [];
      const bystander = createServer((req, res) => {
        seen.push(req.headers.cookie ?? '');
        res.end('a dev server');
      });
      await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', resolve));
      const stores = [sqliteStore(join(dir, 'port-a.db')), sqliteStore(join(dir, 'port-b.db'))];
      const tokens = [TOKEN, 'inbox-test-token-2'];
      const servers = await Promise.all(
        stores.map((store, i) => serveInbox({ session: session({ store }), token: tokens[i] })),
      );
      const context = await browser.newContext();
      try {
        for (const server of servers) await login(context, server.url);
        const page = await context.newPage();
        for (const server of servers) {
          const response = await page.goto(`${new URL(server.url).origin}/`);
          expect(response?.status(), `${server.url} still logged in`).toBe(200);
        }
        const address = bystander.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        await page.goto(`http://127.0.0.1:${port}/`);
        // The page, and the favicon the browser asks for: neither carries a token.
        expect(seen.length).toBeGreaterThan(0);
        for (const cookies of seen)
          for (const token of tokens) expect(cookies).not.toContain(token);
      } finally {
        await context.close();
        for (const server of servers) await server.close();
        for (const store of stores) await store.close();
        await new Promise((resolve) => bystander.close(resolve));
      }
    },
  );

  it.skipIf(!hasChromium)(
    'behind a proxy that names the user (identify), shows who is signed in and records them',
    async (ctx) => {
      if (!browser) return ctx.skip();
      const store = sqliteStore(join(dir, `identity-${++files}.db`));
      const shopped = shop(store);
      const server = await serveInbox({
        session: shopped.runs,
        identify: headerIdentity('X-Forwarded-User'),
      });
      // What an authenticating proxy in front of the inbox adds to every request.
      const context = await browser.newContext({
        extraHTTPHeaders: { 'X-Forwarded-User': 'carla@example.com' },
      });
      try {
        await suspendOn(shopped.runs, 'refund', { orderId: 'o-proxy' }, 'run-proxy');
        const page = await context.newPage();
        await page.goto(server.url);
        expect(await page.locator('header').textContent()).toContain(
          'Signed in as carla@example.com',
        );
        expect(await page.locator('input[name=by]').count()).toBe(0);
        await card(page, 'run-proxy').getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/calls\//);
        const audit = page.locator('table tbody tr').first().locator('td');
        expect(await audit.nth(3).textContent()).toBe('carla@example.com');
        expect((await shopped.runs.get('run-proxy'))?.audit?.[0].by).toBe('carla@example.com');
        const stranger = await browser.newContext();
        const bare = await (await stranger.newPage()).goto(server.url);
        expect(bare?.status()).toBe(401);
        await stranger.close();
      } finally {
        await context.close();
        await server.close();
        await store.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'with a token per approver, records in the audit trail who logged in, and asks no name',
    async (ctx) => {
      if (!browser) return ctx.skip();
      const store = sqliteStore(join(dir, `approvers-${++files}.db`));
      const shopped = shop(store);
      const server = await serveInbox({
        session: shopped.runs,
        tokens: { ana: 'ana-secret-1', bo: 'bo-secret-22' },
      });
      const context = await browser.newContext();
      try {
        await suspendOn(shopped.runs, 'refund', { orderId: 'o-who' }, 'run-who');
        await login(context, `${server.url}?token=bo-secret-22`);
        const page = await context.newPage();
        await page.goto(server.url);
        expect(await page.locator('header').textContent()).toContain('Signed in as bo');
        expect(await page.locator('input[name=by]').count()).toBe(0);
        await card(page, 'run-who').getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/calls\//);
        const audit = page.locator('table tbody tr').first().locator('td');
        expect(await audit.nth(3).textContent()).toBe('bo');
        expect((await shopped.runs.get('run-who'))?.audit?.[0].by).toBe('bo');
      } finally {
        await context.close();
        await server.close();
        await store.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    'reads plainly: read-only arguments, "min ago" with the exact time on hover, tool results not as the user, finished runs with tool and answer',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-plain' }, 'run-plain');
        const page = await s.open();
        const pending = card(page, 'run-plain');
        const value = pending.locator('dl.args dd > *').first();
        expect(await value.textContent()).toBe('"o-plain"');
        // Found and measured in one go: the list is re-rendered (innerHTML) when its event
        // stream opens, which can detach an element handle between finding and measuring it.
        const look = await page.evaluate((selector: string) => {
          const element: any = (globalThis as any).document.querySelector(selector);
          const style = element.ownerDocument.defaultView.getComputedStyle(element);
          return {
            tag: element.tagName,
            editable: element.isContentEditable,
            border: style.borderTopStyle,
            background: style.backgroundColor,
          };
        }, 'article.pending[data-run="run-plain"] dl.args dd > *');
        // Text, not a field: no border, no field background, nothing to type into.
        expect(look).toEqual({
          tag: 'CODE',
          editable: false,
          border: 'none',
          background: 'rgba(0, 0, 0, 0)',
        });
        const since = pending.locator('time[data-ago]');
        expect(await since.textContent()).toMatch(/^(just now|\d+ min ago)$/);
        expect(await since.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
        // The words stay true while the page stays open: three minutes later, "3 min ago".
        const waited = await page.context().newPage();
        await waited.clock.install();
        await waited.goto(`${s.origin}/`);
        await waited.clock.runFor('03:00'); // every timer in order: the last refresh sees 3:00
        expect(await card(waited, 'run-plain').locator('time[data-ago]').textContent()).toBe(
          '3 min ago',
        );
        // A list the event stream refreshes later (here: another run suspends) comes from
        // the server saying "just now" by its clock; the page relabels it by its own at once.
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-later' }, 'run-later');
        await card(waited, 'run-later').waitFor();
        expect(await card(waited, 'run-plain').locator('time[data-ago]').textContent()).toBe(
          '3 min ago',
        );
        await waited.close();
        await pending.getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/calls\//);
        const roles = await page.locator('.messages .role').allTextContents();
        expect(roles).toEqual(['User', 'Assistant', 'Tool result', 'Assistant']);
        await page.goto(`${s.origin}/?status=done`);
        const row = page.locator('table.runs tbody tr', { hasText: 'run-plain' });
        expect(await row.locator('td.tools').textContent()).toBe('refund');
        expect(await row.locator('td.answer').textContent()).toBe('Finished: refunded o-plain');
      } finally {
        await s.close();
      }
    },
  );
});
