/**
 * Step 1 of the session example: start a run that stops for an approval, and print its
 * pending call with the token that approves it. The run waits in the store.
 *
 *     npx tsx examples/session/start.ts                       # SQLite: .fino/sessions.db
 *     npx tsx examples/session/start.ts --db postgres://…     # PostgreSQL
 */
import { session } from 'fino:ai/session';
import { refundAgent } from './refund-agent.ts';
import { dbArgument, openStore } from './store.ts';

const db = dbArgument();
const store = openStore(db);
const runs = session({ store, agent: refundAgent() });
const run = await runs.start('Refund order o-17, the customer sent it back.');
console.log(`run ${run.runId}: ${run.status}`);
if (run.status === 'suspended') {
  for (const call of run.pending) {
    console.log(
      `pending ${call.kind}: ${call.toolName}(${JSON.stringify(call.args)}), risk ${call.risk}`,
    );
    console.log(
      `  approve: npx fino sessions approve ${call.token}${db ? ` --db ${db}` : ''} --by <you>`,
    );
  }
}
await store.close();
