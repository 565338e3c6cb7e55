/**
 * docs/web-apps.md, run as written (decision 258): its servers — the Next.js route file,
 * the Hono app, the plain Node one — each started in a Node process of its own and
 * chatted with over HTTP by `ai`'s own chat client (a question, then a refund approved in
 * the chat, then a reload); the React page type-checked and rendered. The Next.js route
 * is called as Next calls a route handler: `POST(request, { params })`. The project the
 * blocks run in is web-apps-project.ts; the page in Chromium is web-apps.browser.test.ts.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { session, sqliteStore } from '../../src/ai/session/index.ts';
import { TestChat } from '../helpers/ui-chat-client.ts';
import { snippetTsconfig } from './snippets.ts';
import {
  WEB_APPS_DOC,
  type WebAppsProject,
  webAppsBlocks,
  webAppsProject,
} from './web-apps-project.ts';

const root = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);

/** Next.js's side of a route file: the exports by method, called with `(request, { params })`. */
const NEXT = `// next.ts — calls app/api/chat/[[...path]]/route.ts as Next.js does
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeListener } from 'fino:ai/ui';
import * as route from './route.ts';

type RouteHandler = (
  request: Request,
  context: { params: Promise<{ path?: string[] }> },
) => Response | Promise<Response>;
const handlers: Record<string, RouteHandler> = { POST: route.POST, GET: route.GET };

const server = createServer(
  nodeListener((request) => {
    const path = new URL(request.url).pathname.split('/').slice(3).filter(Boolean);
    const handler = handlers[request.method];
    if (!handler) return new Response(null, { status: 405 });
    return handler(request, { params: Promise.resolve(path.length > 0 ? { path } : {}) });
  }),
);
server.listen(0, () => {
  const { port } = server.address() as AddressInfo;
  console.log(\`Chat on http://localhost:\${port}/api/chat (runtime \${route.runtime})\`);
});
`;

const QUESTION: UIMessage = {
  id: 'q1',
  role: 'user',
  parts: [{ type: 'text', text: 'Refund o-17' }],
};
const ASKING: UIMessage = {
  id: 'run-1',
  role: 'assistant',
  parts: [
    { type: 'step-start' },
    {
      type: 'tool-refund',
      toolCallId: 'c1',
      state: 'approval-requested',
      input: { orderId: 'o-17' },
      approval: { id: 'run-1/c1' },
    },
  ],
};
/** Renders the page's chat with a refund waiting for approval, as a server renders it first. */
const RENDER = `// render.tsx
import { renderToString } from 'react-dom/server';
import { Chat } from './page.tsx';
console.log(renderToString(<Chat chatId="ana:1" initialMessages={${JSON.stringify([QUESTION, ASKING])}} />));
`;

/** What the browser sends: the request, with the user's session cookie. */
const withCookie =
  (cookie: string | undefined) =>
  async (request: Request): Promise<Response> =>
    fetch(request.url, {
      method: request.method,
      headers: { ...Object.fromEntries(request.headers), ...(cookie && { cookie }) },
      ...(request.method === 'POST' && { body: await request.text() }),
      signal: request.signal,
    });

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');

/**
 * A page of user "ana" chatting with the server at `api`: a question, a refund approved,
 * a reload. The approval's `by` in the audit trail is the one `auth` gave.
 */
async function chatWith({ api, cwd }: { api: string; cwd: string }): Promise<void> {
  const as = withCookie('sid=s3cr3t');
  const nobody = await withCookie(undefined)(new Request(`${api}/ana:1/messages`));
  expect(nobody.status).toBe(401);
  expect(await nobody.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  const other = await as(new Request(`${api}/bob:1/messages`));
  expect(other.status).toBe(403);
  expect(await other.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  expect(await (await as(new Request(`${api}/ana:1/messages`))).json()).toEqual([]);

  const chat = new TestChat({ id: 'ana:1', api, handler: as });
  await chat.sendMessage({ text: 'Hi' });
  expect(textOf(chat.messages.at(-1))).toBe('Hello! I can refund orders.');

  await chat.sendMessage({ text: 'Refund o-17' });
  const asking = chat.messages.at(-1)?.parts.find((part) => part.type === 'tool-refund');
  expect(asking).toMatchObject({ state: 'approval-requested', input: { orderId: 'o-17' } });
  const approvalId = (asking as { approval: { id: string } }).approval.id;
  await chat.addToolApprovalResponse({ id: approvalId, approved: true });
  await vi.waitFor(() => expect(textOf(chat.messages.at(-1))).toBe('Refunded o-17.'), {
    timeout: 20_000,
  });
  await vi.waitFor(() => expect(chat.status).toBe('ready'));
  expect(chat.messages.at(-1)?.parts).toContainEqual(
    expect.objectContaining({
      type: 'tool-refund',
      state: 'output-available',
      output: 'refunded o-17',
    }),
  );
  expect(chat.errors).toEqual([]);

  // A reload: the thread's messages, and nothing left to resume.
  const reloaded = (await (await as(new Request(`${api}/ana:1/messages`))).json()) as UIMessage[];
  expect(reloaded.map((m) => [m.role, textOf(m)])).toEqual([
    ['user', 'Hi'],
    ['assistant', 'Hello! I can refund orders.'],
    ['user', 'Refund o-17'],
    ['assistant', 'Refunded o-17.'],
  ]);
  expect((await as(new Request(`${api}/ana:1/stream`))).status).toBe(204);

  const store = sqliteStore(join(cwd, '.fino', 'chat.db'));
  try {
    const run = await session({ store }).get(chat.messages.at(-1)?.id ?? '');
    expect(run?.audit).toMatchObject([{ action: 'approve', toolName: 'refund', by: 'ana' }]);
  } finally {
    await store.close();
  }
}

describe(`${WEB_APPS_DOC}, run as written`, () => {
  let project: WebAppsProject;
  beforeAll(() => {
    project = webAppsProject('web-apps', { 'next.ts': NEXT, 'render.tsx': RENDER });
    writeFileSync(
      join(project.dir, 'tsconfig.json'),
      snippetTsconfig(root, ['next.ts', 'hono.ts', 'server.ts', 'render.tsx'], {
        jsx: 'react-jsx',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      }),
    );
  });
  afterAll(() => project.close());

  it('has the blocks this test runs', () => {
    expect([...webAppsBlocks().keys()].sort()).toEqual([
      'chat.ts',
      'hono.ts',
      'page.tsx',
      'route.ts',
      'server.ts',
    ]);
  });

  it('type-check, the route as Next.js types a route handler and the React page included', async () => {
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const result = await exec(
      tsc,
      ['-p', join(project.dir, 'tsconfig.json'), '--pretty', 'false'],
      {
        cwd: project.dir,
      },
    ).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(result).toBe('');
  }, 120_000);

  it('the Next.js route file answers a chat, an approval and a reload', async () => {
    await chatWith(await project.startServer('next.ts'));
  }, 60_000);

  it('the Hono app answers a chat, an approval and a reload over HTTP', async () => {
    await chatWith(await project.startServer('hono.ts'));
  }, 60_000);

  it('the plain Node server answers a chat, an approval and a reload over HTTP', async () => {
    await chatWith(await project.startServer('server.ts'));
  }, 60_000);

  it('the React page renders the chat, with Approve and Reject on a waiting refund', async () => {
    const { stdout } = await exec(process.execPath, project.nodeArgs('render.tsx'), {
      cwd: project.dir,
    });
    expect(stdout).toContain('Refund o-17');
    expect(stdout).toContain('{&quot;orderId&quot;:&quot;o-17&quot;}');
    expect(stdout).toMatch(/<button[^>]*>Approve<\/button><button[^>]*>Reject<\/button>/);
  }, 60_000);
});
