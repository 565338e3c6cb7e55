/**
 * docs/web-apps.md's React page in Chromium (decision 258): the page's `ChatPage`,
 * bundled as an app bundles it, served with the page's chat server (its `chat.ts`) on
 * one origin, with the user's session cookie. A question, a refund that waits while the
 * page reloads and is approved with the page's Approve button, a reload that shows the
 * whole conversation again. Skipped visibly when /usr/bin/chromium is missing (an error
 * when CI=true).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebAppsProject, webAppsProject } from './web-apps-project.ts';

const CHROMIUM = process.env.FINO_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const message = `${CHROMIUM} not found: the web apps page's browser test is skipped (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n*** ${message} ***\n`);
}

/** The page's component in a document, as a framework mounts it. */
const CLIENT = `// client.tsx
import { createRoot } from 'react-dom/client';
import { ChatPage } from './page.tsx';

createRoot(document.getElementById('root') as HTMLElement).render(<ChatPage chatId="ana:1" />);
`;
/** The page's chat server, serving the bundled page beside the chat's routes. */
const SITE = `// site.ts
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeListener } from 'fino:ai/ui';
import { chat } from './chat.ts';

const html =
  '<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="/client.js"></script>';
const script = readFileSync(new URL('./client.js', import.meta.url));
const server = createServer(
  nodeListener((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/') return new Response(html, { headers: { 'content-type': 'text/html' } });
    if (pathname === '/client.js') {
      return new Response(script, { headers: { 'content-type': 'text/javascript' } });
    }
    return chat.fetch(request);
  }),
);
server.listen(0, () => {
  const { port } = server.address() as AddressInfo;
  console.log(\`Chat on http://localhost:\${port}/api/chat\`);
});
`;

describe.skipIf(!hasChromium)('docs/web-apps.md: the React page in Chromium', () => {
  let project: WebAppsProject;
  let browser: Browser | undefined;
  beforeAll(async () => {
    project = webAppsProject('web-apps-browser', { 'client.tsx': CLIENT, 'site.ts': SITE });
    await build({
      entryPoints: [join(project.dir, 'client.tsx')],
      outfile: join(project.dir, 'client.js'),
      bundle: true,
      format: 'esm',
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    project?.close();
  });

  it('chats, approves a refund after a reload, and shows it all after another', async () => {
    const { api } = await project.startServer('site.ts');
    const origin = new URL(api).origin;
    const context = await (browser as Browser).newContext();
    await context.addCookies([{ name: 'sid', value: 's3cr3t', url: origin }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);

    const input = page.locator('input');
    await input.fill('Hi');
    await input.press('Enter');
    await page.getByText('Hello! I can refund orders.').waitFor();
    await expect.poll(() => input.isEnabled()).toBe(true);
    await input.fill('Refund o-17');
    await input.press('Enter');
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    // The page leaves while the refund waits: the run waits in the store, and the
    // reloaded page shows the question and its Approve button again (resume: true).
    await page.reload();
    await approve.click();
    await page.getByText('Refunded o-17.').waitFor();

    await page.reload();
    await page.getByText('Refunded o-17.').waitFor();
    const shown = (await page.locator('main').textContent()) ?? '';
    for (const line of ['You: Hi', 'Hello! I can refund orders.', 'You: Refund o-17']) {
      expect(shown).toContain(line);
    }
    expect(shown).toContain('[output-available]');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
