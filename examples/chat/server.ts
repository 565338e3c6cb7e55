/**
 * A chat page over a fino session: React with `useChat`, an agent with a tool that needs
 * the user's approval, a budget, and a conversation that survives a reload (the run goes
 * on without the page; the page resumes its stream).
 *
 *     npx tsx examples/chat/server.ts                  # http://127.0.0.1:3000/
 *     npx tsx examples/chat/server.ts --port 0 --db /tmp/chat.db
 *
 * `--port` (or PORT; 0 picks a free one), `--host` (default 127.0.0.1), `--db` (or
 * FINO_DATABASE_URL): a SQLite file (default `.fino/chat.db`) or a postgres:// URL.
 * With OPENAI_API_KEY or ANTHROPIC_API_KEY set it talks to that provider, else to an
 * offline demo model. `--lease-ms` (or FINO_LEASE_MS; default 30000): how soon another
 * server on the same database takes over a run whose server died. Prints
 * `fino chat example: <url>` once it listens.
 */

import { session } from 'fino:ai/session';
import { chatHandler, nodeListener } from 'fino:ai/ui';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../session/store.ts';
import { demoAuth } from './demo-auth.ts';
import { bundlePage } from './page-bundle.ts';
import { PAGE_CSP, PAGE_SHELL } from './page-shell.ts';
import { chooseModel, shopAgent } from './shop-agent.ts';

/** A wrong command line: what was wrong, on stderr, and exit code 2. */
function usageError(message: string): never {
  console.error(
    `fino: ${message}\nUsage: npx tsx examples/chat/server.ts [--port <n>] [--host <h>] [--db <file|url>] [--lease-ms <n>]`,
  );
  process.exit(2);
}

/** The command line, checked. */
function options() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: process.env.PORT || '3000' },
        host: { type: 'string', default: '127.0.0.1' },
        db: { type: 'string', default: process.env.FINO_DATABASE_URL || join('.fino', 'chat.db') },
        'lease-ms': { type: 'string', default: process.env.FINO_LEASE_MS || '30000' },
      },
    }).values;
  } catch (error) {
    return usageError((error as Error).message); // "Unknown option '--x'", a missing value
  }
}

const values = options();
const port = Number(values.port);
if (values.port === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
  usageError(`--port: expected a port number from 0 to 65535, received "${values.port}"`);
}

const store = openStore(values.db);
const model = chooseModel();
/** The session of the chats; session() checks the lease (a RangeError naming it). */
function chatSession() {
  try {
    return session({
      store,
      agent: shopAgent(model),
      events: true,
      leaseMs: Number(values['lease-ms']),
    });
  } catch (error) {
    return usageError(`--lease-ms "${values['lease-ms']}": ${(error as Error).message}`);
  }
}
const runs = chatSession();
const chat = chatHandler({ session: runs, auth: demoAuth });
const script = await bundlePage();

/** The example's routes: the page, its script, and the chat API. */
async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === '/api/chat' || pathname.startsWith('/api/chat/')) return chat.fetch(request);
  if (request.method !== 'GET') return new Response('Method Not Allowed', { status: 405 });
  if (pathname === '/') {
    return new Response(PAGE_SHELL, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP },
    });
  }
  if (pathname === '/page.js') {
    return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  }
  return new Response('Not Found', { status: 404 });
}

const server = createServer(nodeListener(handle));
server.listen(port, values.host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`model: ${model.id}`);
  console.log(`fino chat example: http://${values.host}:${bound}/`);
});
server.on('error', (error) => {
  console.error(`fino: ${error.message}`);
  process.exit(1);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void store.close().finally(() => process.exit(0));
  });
}
