/**
 * Step 3 of the session example, in a third process: a worker that continues every run
 * whose pending calls have all been decided, and prints how each ended.
 *
 *     npx tsx examples/session/finish.ts [--db postgres://…]
 */
import { session } from 'fino:ai/session';
import { refundAgent } from './refund-agent.ts';
import { dbArgument, openStore } from './store.ts';

const store = openStore(dbArgument());
const runs = session({ store, agent: refundAgent() });
const { runs: finished, corrupt } = await runs.drain();
for (const run of finished) {
  console.log(`run ${run.runId}: ${run.status}${run.status === 'done' ? ` — ${run.text}` : ''}`);
}
for (const bad of corrupt) console.log(`run ${bad.runId} cannot be read: ${bad.error}`);
if (finished.length === 0 && corrupt.length === 0) console.log('nothing to continue');
await store.close();
