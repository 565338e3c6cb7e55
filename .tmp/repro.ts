import pg from 'pg';
import { postgresStore, session } from '../src/ai/session/index.ts';
import { startPostgres, freshSchema } from '../test/helpers/postgres.ts';
import { shopAgent } from '../test/ai/session/fixtures/shop-agent.ts';
process.on('uncaughtException', (e) => { console.log('UNCAUGHT', e.stack); process.exit(3); });
const server = (await startPostgres({ durable: true }))!;
const schema = await freshSchema(server.url);
const store = postgresStore(server.url, { schema });
const runs = session({ store, agent: shopAgent('order', '/tmp/repro.jsonl') });
const tokens: string[] = [];
for (let i = 0; i < 20; i++) tokens.push(((await runs.start('x')) as any).pending[0].token);
let stop = false;
const counts = { drain: 0, list: 0, approve: 0 };
const loop = (name: keyof typeof counts, op: () => Promise<unknown>) => (async () => { while (!stop) { try { await op(); counts[name]++; } catch (e) { console.log(name, 'failed', (e as Error).message); } } })();
const loops = [loop('drain', () => runs.drain()), loop('list', () => runs.list()), loop('approve', async () => { const t = tokens.pop(); if (t) await runs.approve(t, { defer: true }); else await new Promise((r) => setTimeout(r, 5)); })];
for (let i = 0; i < 10; i++) {
  const c = new pg.Client({ connectionString: server.url }); await c.connect();
  const r = await c.query(`SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`);
  await c.end();
  console.log('terminated', r.rows[0].n, JSON.stringify(counts));
  if (i % 3 === 0) { await server.faults!.restart(); console.log('restarted'); }
  await new Promise((r) => setTimeout(r, 100));
}
stop = true;
await Promise.all(loops);
console.log(JSON.stringify(counts));
await store.close();
await server.stop();
