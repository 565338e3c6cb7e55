/**
 * examples/chat in a real browser: Debian's Chromium driven by playwright-core against
 * the example's server as a child process (SQLite in a temporary folder, the offline demo
 * model). The page is the example's own `useChat` page: streamed text, an approval in the
 * page recorded with the signed-in user, a reload in the middle of an answer. Skipped
 * visibly when /usr/bin/chromium is missing (an error when CI=true).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ANSWER, DEMO_STORY } from '../../examples/chat/demo-model.ts';
import { sqliteStore } from '../../src/ai/session/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { type ChatServerProcess, startChatServer } from './chat-server.ts';

const CHROMIUM = process.env.FINO_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const message = `${CHROMIUM} not found: the chat example's browser tests are skipped (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n*** ${message} ***\n`);
}

const TEST_TIMEOUT_MS = 60_000;
/** How long a condition may take to come true on a loaded machine (never a sleep). */
const WAIT = { timeout: 20_000, interval: 50 };
const dir = tempDir('chat-example');
let files = 0;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text parts of the last assistant message, joined. */
const answerText = async (page: Page) =>
  (
    await page
      .getByRole('listitem', { name: 'Assistant' })
      .last()
      .locator('p.text')
      .allTextContents()
  ).join(' ');

const statusOf = (page: Page) => page.getByRole('status').textContent();

/** Resolves with `read()`'s value once `accept` holds for it (polling, never sleeping as a check). */
async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  let seen: T | undefined;
  await expect
    .poll(async () => {
      seen = await read();
      return accept(seen);
    }, WAIT)
    .toBe(true);
  return seen as T;
}

interface Setup {
  server: ChatServerProcess;
  db: string;
  page: Page;
  /** A new server on the same file and port (after the last one died). */
  restart(): Promise<ChatServerProcess>;
  close(): Promise<void>;
}

/** The example on a fresh database, and a page on it as `user` (a cookie, as a login sets). */
async function setup(user?: string, args: string[] = []): Promise<Setup> {
  const db = join(dir, `chat-${++files}.db`);
  let server = await startChatServer(db, { args });
  const context = await browser!.newContext();
  if (user) await context.addCookies([{ name: 'fino_demo_user', value: user, url: server.origin }]);
  const page = await context.newPage();
  await page.goto(`${server.origin}/`);
  await page.waitForURL(/\?chat=/);
  return {
    get server() {
      return server;
    },
    db,
    page,
    async restart() {
      server = await startChatServer(db, { port: server.port, args });
      return server;
    },
    close: async () => {
      await context.close();
      await server.stop();
    },
  };
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Message').fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Asks for the story, and waits until its first words are on the page (not its last). */
async function startStory(page: Page): Promise<void> {
  await ask(page, 'Tell me a long story');
  const before = await until(
    () => answerText(page),
    (text) => text.length > 0,
  );
  expect(before.length).toBeLessThan(oneLine(DEMO_STORY).length);
}

/** The question, and the whole story as the one answer, with the chat ready again. */
async function expectWholeStory(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByRole('listitem', { name: 'You' }).allTextContents(), WAIT)
    .toEqual(['YouTell me a long story']);
  await expect.poll(() => answerText(page), WAIT).toBe(oneLine(DEMO_STORY));
  await expect.poll(() => statusOf(page), WAIT).toBe('Status: ready');
  expect(await page.getByRole('listitem', { name: 'Assistant' }).count()).toBe(1);
}

describe('examples/chat in Chromium', () => {
  it.skipIf(!hasChromium)(
    'streams an answer, then a refund waits for Approve in the page, runs, and is audited with the signed-in user',
    async () => {
      const s = await setup('ana');
      try {
        const { page } = s;
        await ask(page, 'Hello, who are you?');
        const full = oneLine(DEMO_ANSWER);
        // Two observations of a growing answer before it is complete: it streams.
        const first = await until(
          () => answerText(page),
          (text) => text.length > 0,
        );
        const second = await until(
          () => answerText(page),
          (text) => text.length > first.length,
        );
        expect(second.length).toBeLessThan(full.length);
        expect(full.startsWith(second)).toBe(true);
        await expect.poll(() => answerText(page), WAIT).toBe(full);
        await expect.poll(() => statusOf(page), WAIT).toBe('Status: ready');

        await ask(page, 'Please refund order o-17');
        const approve = page.getByRole('button', { name: 'Approve' });
        await approve.waitFor(WAIT);
        expect(await page.getByLabel('Output of lookup_order').textContent()).toBe(
          'Order o-17: 2 items, 89 EUR, delivered',
        );
        expect(
          await page.getByRole('region', { name: 'Tool call refund' }).textContent(),
        ).toContain('refund needs your approval');
        await approve.click();
        await expect
          .poll(() => page.getByLabel('Output of refund').textContent(), WAIT)
          .toMatch(/^Refunded 89 EUR for o-17/);
        await expect
          .poll(() => answerText(page), WAIT)
          .toMatch(/Done: Refunded 89 EUR for o-17 .*Anything else\?$/);
        await expect.poll(() => statusOf(page), WAIT).toBe('Status: ready');
        expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

        // The decision's `by` is the server's auth hook's user (the cookie), not the page's word.
        const store = sqliteStore(s.db);
        try {
          const runs = await store.list();
          const audits = (
            await Promise.all(
              runs.map((run) =>
                run instanceof Error ? Promise.reject(run) : store.audit(run.runId),
              ),
            )
          ).flat();
          expect(audits).toHaveLength(1);
          expect(audits[0]).toMatchObject({ by: 'ana', action: 'approve', toolName: 'refund' });
        } finally {
          await store.close();
        }
      } finally {
        await s.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!hasChromium)(
    'reloaded in the middle of an answer, shows the question and the same answer to its end',
    async () => {
      const s = await setup();
      try {
        const { page } = s;
        const resumed: number[] = [];
        page.on('response', (response) => {
          if (/\/api\/chat\/[^/]+\/stream$/.test(new URL(response.url()).pathname)) {
            resumed.push(response.status());
          }
        });
        await startStory(page);
        expect(await statusOf(page)).toBe('Status: streaming');
        const address = page.url();

        await page.reload();
        expect(page.url()).toBe(address);
        await expectWholeStory(page);
        // The page after the reload resumed the run's stream: it was still going.
        expect(resumed).toContain(200);
      } finally {
        await s.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!hasChromium)(
    'SIGKILLed in the middle of an answer, a new server on the same file and port finishes it for the reloaded page',
    async () => {
      // A short lease, so the new server takes the dead one's run over within a second.
      const s = await setup(undefined, ['--lease-ms', '1000']);
      try {
        const { page } = s;
        await startStory(page);
        const dead = s.server.process;
        const exited = new Promise((resolve) => dead.once('exit', resolve));
        dead.kill('SIGKILL');
        await exited;
        await s.restart();

        await page.reload();
        await expectWholeStory(page);
        // The thread holds the answer once: a second reload shows it from the store.
        await page.reload();
        await expectWholeStory(page);
      } finally {
        await s.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
