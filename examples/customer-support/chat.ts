/**
 * One customer message to the support desk, in a thread: prints who answered, or the
 * refund waiting for approval with the command that approves it. The run and the thread
 * live in the store between processes.
 *
 *     npx tsx examples/customer-support/chat.ts "I want a refund for o-17" [--thread t1] [--db file] [--outage]
 *
 * `--outage` makes gpt-4.1 answer 503 in this process: the desk falls back to its second
 * provider, and the run shows which model answered each step.
 */
import { session } from 'fino:ai/session';
import { dbArgument, openStore } from '../session/store.ts';
import { supportDesk } from './desk.ts';
import { showRun } from './show-run.ts';

const argv = process.argv.slice(2);
const message = argv[0] ?? 'Hello';
const thread = argv.includes('--thread') ? argv[argv.indexOf('--thread') + 1] : 'customer-1';
const store = openStore(dbArgument(argv));
const runs = session({ store, agent: supportDesk({ outage: argv.includes('--outage') }) });
await showRun(runs, await runs.start(message, { threadId: thread }));
await store.close();
