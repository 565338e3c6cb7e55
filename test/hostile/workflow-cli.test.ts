/**
 * The command line's workflow subcommands of issue 31 — `fino workflows schedules`,
 * `query`, `update`, `history` — given bad flags: unknown ones, missing values, arguments
 * missing, values that are not JSON, control characters and escape codes in ids, names
 * and the audit trail. Each exits 2 with a message naming the flag or argument and what it
 * expects, and writes nothing: no schedule paused, no audit entry, no request queued, no
 * history entry, no database file created.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflows } from '../../src/cli/commands/workflows.ts';
import {
  schedules,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { runCommand } from '../helpers/run-command.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('hostile-workflow-cli');
const db = join(dir, 'workflows.db');
const fresh = join(dir, 'never-created.db');

const cli = (argv: string[]) => runCommand(workflows, argv, dir);

const tally = workflow({
  id: 'tally',
  async run(ctx) {
    let total = 0;
    ctx.onQuery('total', () => total);
    ctx.onUpdate('add', (n: number) => (total += n));
    await ctx.waitForSignal('close');
    return total;
  },
});

let store: WorkflowStore;
let runId: string;
/** What the store holds, to compare before and after every refusal. */
const snapshot = async () => ({
  schedule: await schedules({ store }).get('nightly'),
  history: await store.history(runId),
  requests: await store.openRequests(runId),
  exists: existsSync(fresh),
});

beforeAll(async () => {
  store = sqliteWorkflowStore(db);
  await schedules({ store }).create({ id: 'nightly', workflow: tally, cron: '0 3 * * *' });
  ({ runId } = await tally.start(undefined, { store }));
  await worker({ store, workflows: [tally] }).drain(); // parked, registered its handlers
});
afterAll(() => store.close());

const printable = 'expected text without control characters or lone surrogates';

const badCommandLines: Array<[string[], RegExp]> = [
  [
    ['schedules', '--bogus'],
    /unknown option --bogus; expected one of --workflow, --db, --by, --note, --json, --help/,
  ],
  [
    ['schedules', 'frob'],
    /<action>: expected one of list, show, pause, resume, delete, received "frob"/,
  ],
  [['schedules', 'pause'], /schedules pause needs a schedule id/],
  [['schedules', 'show', 'nightly', '--db'], /--db is missing its value: expected a string value/],
  [['schedules', 'list', 'a', 'b'], /unexpected argument "b"/],
  [['schedules', 'pause', 'nightly\u0000'], new RegExp(`<id>: ${printable}`)],
  [['schedules', 'pause', 'nightly', '--by', '\u001b[2J'], new RegExp(`--by: ${printable}`)],
  [['schedules', 'pause', 'nightly', '--note', 'a\u0000b'], new RegExp(`--note: ${printable}`)],
  [
    ['schedules', 'pause', 'nightly', '--note', 'x'.repeat(2_001)],
    /--note: expected at most 2000 characters/,
  ],
  [['schedules', 'list', '--workflow', 'x\u0007'], new RegExp(`--workflow: ${printable}`)],
  [['query'], /missing <run-id>/],
  [['query', 'RUN'], /missing <name>/],
  [['query', 'RUN', 'total', '--args', '{bad'], /--args: expected a JSON value, received "\{bad"/],
  [['query', 'RUN', 'total', '--args'], /--args is missing its value: expected a JSON value/],
  [
    ['query', 'RUN', 'total', '--bogus'],
    /unknown option --bogus; expected one of --args, --timeout-ms, --db, --json, --help/,
  ],
  [
    ['query', 'RUN', 'total', '--timeout-ms', 'soon'],
    /--timeout-ms: expected a number value, received "soon"/,
  ],
  [['query', 'RUN', 'to\u0000tal'], new RegExp(`<name>: ${printable}`)],
  [['query', 'RUN\u001b[31m', 'total'], new RegExp(`<run-id>: ${printable}`)],
  [
    ['update', 'RUN', 'add', '--args', '1', '--update-id', 'u\u0000'],
    new RegExp(`--update-id: ${printable}`),
  ],
  [
    ['update', 'RUN', 'add', '--args', '1', '--update-id', 'u'.repeat(201)],
    /--update-id: expected at most 200 characters/,
  ],
  [['update', 'RUN', 'add', '--args', '1', '--update-id'], /--update-id is missing its value/],
  [['update', 'RUN', 'add', '--args', '10n'], /--args: expected a JSON value, received "10n"/],
  [['update', 'RUN'], /missing <name>/],
  [['history'], /missing <run-id>/],
  [['history', 'RUN', '--bogus'], /unknown option --bogus; expected one of --db, --json, --help/],
  [['history', 'RUN\u0000', '--json'], new RegExp(`<run-id>: ${printable}`)],
];

describe('fino workflows schedules|query|update|history with bad flags', () => {
  it.each(
    badCommandLines.map(
      ([argv, message]) => [JSON.stringify(argv).slice(0, 90), argv, message] as const,
    ),
  )('%s: exit 2 naming what was wrong, nothing written', async (_shown, argv, message) => {
    const before = await snapshot();
    const args = argv.map((arg) => arg.replace('RUN', runId));
    const hasDb = args.includes('--db');
    const { code, out, err } = await cli(hasDb ? args : [...args, '--db', db]);
    expect(err).toMatch(message);
    expect(err).toMatch(/Run "fino workflows .*" (for usage|to list them)/);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(await snapshot()).toEqual(before);
  });

  it('a bad flag opens no database: the file named by --db is not created', async () => {
    const { code } = await cli(['schedules', '--db', fresh, '--bogus']);
    expect(code).toBe(2);
    expect(existsSync(fresh)).toBe(false);
    expect((await cli(['history', 'x\u0000', '--db', fresh])).code).toBe(2);
    expect(existsSync(fresh)).toBe(false);
  });
});
