/**
 * One worker process of the schedule benchmark (forked by `schedules.ts` with an IPC
 * channel): `schedule-worker.ts <db> [schema]` — a fino `worker()` over the `tick`
 * workflow (one checkpointed step), which fires the store's due schedule ticks and runs
 * them. It connects (and migrates) before it sends `ready`, starts on `go`, and stops
 * on `stop`.
 */
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { CONCURRENCY } from './settings.ts';

/** How often the workers look for due schedules, as in the measured run. */
const POLL_MS = Number(process.env.BENCH_WF_POLL_MS ?? 100);

const [db, schema] = process.argv.slice(2);
const store = db!.startsWith('postgres://')
  ? postgresWorkflowStore(db!, { schema: schema! })
  : sqliteWorkflowStore(db!);
const tick = workflow({ id: 'tick', run: (ctx) => ctx.step('work', () => 1) });
const w = worker({
  store,
  workflows: [tick],
  concurrency: CONCURRENCY,
  pollMs: POLL_MS,
  telemetry: false,
  handleSignals: false,
});
await store.list({ limit: 1 });

process.on('message', async (message: string) => {
  if (message === 'go') await w.start();
  if (message === 'stop') {
    await w.stop();
    await store.close();
    process.send!({ stopped: true }, () => process.exit(0));
  }
});
process.send!({ ready: true });
