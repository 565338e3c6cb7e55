/**
 * The inbox in a real browser: Debian's Chromium driven by playwright-core, over SQLite
 * and PostgreSQL. Skipped visibly when /usr/bin/chromium is missing (an error when
 * CI=true). Writes docs/inbox.png.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type InboxServer,
  postgresStore,
  type Store,
  serveInbox,
  session,
  sqliteStore,
} from '../../../../src/ai/session/index.ts';
import { freshSchema, type PostgresServer, startPostgres } from '../../../helpers/postgres.ts';
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
let pgServer: PostgresServer | undefined;
const pgStarted = startPostgres().then((s) => (pgServer = s));
const dir = mkdtempSync(join(tmpdir(), 'fino-inbox-'));
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
  await pgStarted.catch(() => {});
  await pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type StoreFactory = () => Promise<Store | undefined>;

const STORES: Array<[string, StoreFactory]> = [
  ['sqlite', async () => sqliteStore(join(dir, `inbox-${++files}.db`))],
  [
    'postgres',
    async () => {
      await pgStarted;
      return pgServer && postgresStore(pgServer.url, { schema: await freshSchema(pgServer.url) });
    },
  ],
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
  makeStore: StoreFactory,
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
    await context.addCookies([
      { name: 'fino_inbox_token', value: TOKEN, url: origin, httpOnly: true, sameSite: 'Strict' },
    ]);
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
          await pending.getByLabel('Your name (optional)').fill('ana');
          await pending.getByRole('button', { name: 'Approve' }).click();
          await page.waitForURL(/\/runs\/run-approve\/calls\/refund_1$/);
          expect(await page.locator('.notice').textContent()).toBe(
            'Approved. The run is now done.',
          );
          expect(await page.locator('#run-status').textContent()).toBe('done');
          expect(await page.locator('main').textContent()).toContain('Finished: refunded o-100');
          const audit = await page.locator('table tbody tr').first().textContent();
          expect(audit).toContain('approved');
          expect(audit).toContain('ana');
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
              `^Already decided by ${winnerName} at \\d{4}-\\d\\d-\\d\\dT\\S+ \\(approve\\)\\. Nothing was changed\\.$`,
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
          name: 'fino_inbox_token',
          value: TOKEN,
          httpOnly: true,
          sameSite: 'Strict',
        });
        expect(await page.evaluate('document.cookie')).toBe('');
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
      const response = await fetch(`${s.origin}/runs/run-evil/calls/refund_1`, {
        method: 'POST',
        headers: {
          origin: 'http://evil.example',
          cookie: `fino_inbox_token=${TOKEN}`,
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
    'is readable on a phone and writes the screenshot docs/inbox.png',
    async (ctx) => {
      const s = await setup(sqlite);
      if (!s || !browser) return ctx.skip();
      try {
        await suspendOn(s.shopped.runs, 'ask_size', {}, 'run_9a01');
        await suspendOn(s.shopped.runs, 'refund', { orderId: 'o-2024-117' }, 'run_7f3c');
        const desktop = await s.open();
        await desktop.screenshot({ path: join(import.meta.dirname, '../../../../docs/inbox.png') });
        const phone = await browser.newContext({
          viewport: { width: 375, height: 740 },
          isMobile: true,
        });
        await phone.addCookies([{ name: 'fino_inbox_token', value: TOKEN, url: s.origin }]);
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
});
