/**
 * A person approves the refund a run waits for, by its token; the run goes on in this
 * process (another than the one that started it) and the desk's answer is printed.
 *
 *     npx tsx examples/customer-support/approve.ts <token> [--db file]
 */
import { session } from 'fino:ai/session';
import { dbArgument, openStore } from '../session/store.ts';
import { supportDesk } from './desk.ts';
import { showRun } from './show-run.ts';

const argv = process.argv.slice(2);
const store = openStore(dbArgument(argv));
const runs = session({ store, agent: supportDesk() });
await showRun(runs, await runs.approve(argv[0], { by: 'ana' }));
await store.close();
