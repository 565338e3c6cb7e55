/**
 * Workflow runs in the inbox, in a real browser: Debian's Chromium driven by
 * playwright-core over a SQLite workflow store, with a token per approver. Skipped
 * visibly when /usr/bin/chromium is missing (an error when CI=true). Its screenshot goes
 * to a temporary folder, never to docs/.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, serveInbox, session } from '../../../../src/ai/session/index.ts';
import { sqliteWorkflowStore, workflowRuns } from '../../../../src/workflow/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { workflowShop } from './workflow-fixtures.ts';

const CHROMIUM = process.env.FINO_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const message = `${CHROMIUM} not found: the inbox's workflow browser test is skipped (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n*** ${message} ***\n`);
}

const HOSTILE = '<img src=x onerror=window.__pwned=1></script><script>window.__pwned=2</script>';
let browser: Browser | undefined;
const dir = tempDir('inbox-wf');

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('workflow runs in the inbox, in Chromium over SQLite', () => {
  it.skipIf(!hasChromium)(
    'an approver approves a workflow’s pending call; the run page follows the run to done, with its timeline',
    async () => {
      const store = sqliteWorkflowStore(join(dir, 'workflows.db'));
      const shop = workflowShop(store);
      const server = await serveInbox({
        session: session({ store: memoryStore() }),
        workflows: workflowRuns(store),
        tokens: { ana: 'ana-secret-1', bo: 'bo-secret-22' },
        pollMs: 100,
      });
      const context = await browser!.newContext({ viewport: { width: 1000, height: 800 } });
      try {
        await shop.refunds.start(HOSTILE, { store, runId: 'wf-browser' });
        await shop.worker.drain();
        const page = await context.newPage();
        await page.goto(`${server.url}?token=ana-secret-1`); // logs in, then lands on the inbox
        const card = page.locator('article.pending[data-workflow-run="wf-browser"]');
        expect(await card.locator('.tool').textContent()).toBe('refund');
        expect(await card.textContent()).toContain(HOSTILE); // shown as text, not markup
        await card.getByLabel('Note or reason (optional)').fill('parcel back');
        await card.getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/workflows\/wf-browser\/decisions\//);
        expect(await page.locator('.notice').textContent()).toBe(
          'Approved. The run goes on when a worker picks it up.',
        );
        // Until a worker runs, the page says so, by the tool's name, its decision id only on hover.
        expect(await page.locator('#run-status').textContent()).toBe(
          'approved, waiting for a worker',
        );
        expect(await page.locator('#worker-hint').textContent()).toContain(
          'Nothing happens until a worker runs',
        );
        const summary = page.locator('section.card').first();
        expect(await summary.textContent()).toContain('waits on refund approved');
        expect(await summary.textContent()).not.toContain('$call:');
        expect(await summary.locator('.id').getAttribute('title')).toBe('$call:refund');
        expect(await page.locator('header').textContent()).toContain('Signed in as ana');

        await shop.worker.drain(); // the worker continues; the open page updates itself
        await expect
          .poll(() => page.locator('#run-status').textContent(), { timeout: 15_000 })
          .toBe('done');
        expect(await page.locator('#worker-hint').count()).toBe(0);
        const timeline = page.locator('table.timeline tbody tr');
        expect(await timeline.count()).toBe(2);
        expect(await timeline.nth(0).textContent()).toContain('load-order');
        expect(await timeline.nth(1).textContent()).toMatch(
          /tool callrefunddone.*\d+(\.\d)? (ms|s|min)/s,
        );
        const audit = await page.locator('table:not(.timeline) tbody tr').first().textContent();
        expect(audit).toContain('approve');
        expect(audit).toContain('ana');
        expect(audit).toContain('parcel back');
        expect(shop.executions.refund).toBe(1);
        expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
        const path = join(dir, 'inbox-workflow.png');
        await page.screenshot({ path, fullPage: true });
        expect(statSync(path).size).toBeGreaterThan(5_000);
      } finally {
        await context.close();
        await server.close();
        await store.close();
      }
    },
    60_000,
  );
});
