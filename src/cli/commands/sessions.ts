/**
 * `fino sessions list|show|approve|reject|resume|cancel`: inspect durable runs and
 * decide their pending calls from a terminal.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  DEFAULT_SQLITE_PATH,
  type PendingRef,
  postgresStore,
  RUN_STATUSES,
  type RunStatus,
  type Session,
  type SessionAgent,
  type SessionRun,
  type Store,
  session,
  sqliteStore,
} from '../../ai/session/index.ts';
import { UsageError } from '../../task/index.ts';
import { asksForHelp, type Command, type CommandIo, writeLine } from '../command.ts';
import { escapeText, safeJson } from '../escape-text.ts';
import { EXIT } from '../exit-codes.ts';
import { importUserModule } from '../load-module.ts';
import { reportError, reportProblem } from '../report-error.ts';
import { serve } from './sessions-serve.ts';

const usage = `Usage: fino sessions <subcommand> [options]

Inspects durable runs (fino/ai/session) and decides their pending calls.

  list [--status S] [--thread T]      runs, oldest first, with their pending calls
  show <runId>                        one run: status, pending calls, audit trail
  approve <ref> [--by N] [--note T]   approve a pending call
  reject <ref> --reason T [--by N]    reject it; the model reads the reason
  resume <ref> --value JSON [--by N]  answer a suspended call with a value
  cancel <runId> [--by N] [--note T]  cancel an unfinished run
  serve [--port N] [--host H] [--token T]
                                      the approval inbox in a browser
                                      ("fino sessions serve --help")

  <ref> is a pending call's token (shown once, when the run suspends), or
        "<runId> <toolCallId>" (as "list" and "show" print it).

Options:
  --db <path-or-url>  a SQLite file or a postgres:// URL
                      (default: $FINO_DATABASE_URL, else ${DEFAULT_SQLITE_PATH})
  --agent <file>      a module exporting the agent (default export, or "agent"):
                      approve/reject/resume then continue the run in this process;
                      without it the decision is recorded and the run waits, ready,
                      for a worker
  --json              print JSON instead of text`;

const SUBCOMMANDS = ['list', 'show', 'approve', 'reject', 'resume', 'cancel'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
const VALUE_OPTIONS = [
  '--db',
  '--agent',
  '--status',
  '--thread',
  '--by',
  '--note',
  '--reason',
  '--value',
];

interface Args {
  subcommand: Subcommand;
  positional: string[];
  options: Map<string, string>;
  json: boolean;
}

const hint = 'Run "fino sessions --help" for usage.';

function parseArgs(argv: string[]): Args {
  const [subcommand, ...rest] = argv;
  if (!SUBCOMMANDS.includes(subcommand as Subcommand)) {
    throw new UsageError(
      subcommand === undefined
        ? `missing subcommand; expected one of ${SUBCOMMANDS.join(', ')}`
        : `unknown subcommand "${subcommand}"; expected one of ${SUBCOMMANDS.join(', ')}`,
      hint,
    );
  }
  const positional: string[] = [];
  const options = new Map<string, string>();
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const [name, inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg];
    if (arg === '--json') json = true;
    else if (VALUE_OPTIONS.includes(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`, hint);
      options.set(name, value);
    } else if (arg.startsWith('-')) {
      throw new UsageError(
        `unknown option ${arg}; expected ${VALUE_OPTIONS.join(', ')} or --json`,
        hint,
      );
    } else positional.push(arg);
  }
  return { subcommand: subcommand as Subcommand, positional, options, json };
}

/** The store named by `--db`, `$FINO_DATABASE_URL`, or the default SQLite file. */
function openStore(db: string | undefined, io: CommandIo): Store {
  const target = db ?? (io.env.FINO_DATABASE_URL || DEFAULT_SQLITE_PATH);
  if (/^postgres(ql)?:\/\//.test(target)) return postgresStore(target);
  const path = isAbsolute(target) ? target : resolve(io.cwd, target);
  if (!existsSync(path)) {
    throw new UsageError(`no session database at ${path}`, 'Pass --db <file or postgres:// URL>.');
  }
  return sqliteStore(path);
}

/** The agent a module exports: its default export, or the export named `agent`. */
async function loadAgent(file: string, io: CommandIo): Promise<SessionAgent> {
  const module = await importUserModule(file, io);
  const isAgent = (value: unknown): value is SessionAgent =>
    typeof (value as SessionAgent | null)?.generate === 'function' &&
    typeof (value as SessionAgent).resume === 'function';
  const found = [module.default, module.agent].find(isAgent);
  if (!found) {
    throw new UsageError(
      `${file} exports no agent: export one as default or as "agent" (an agent from fino/ai/agent)`,
    );
  }
  return found;
}

function ref(positional: string[]): PendingRef {
  if (positional.length === 1) return positional[0];
  if (positional.length === 2) return { runId: positional[0], toolCallId: positional[1] };
  throw new UsageError('expected a token, or a run id and a tool call id', hint);
}

const describeRun = (run: SessionRun): string[] => {
  const thread = run.threadId ? `  thread=${run.threadId}` : '';
  const lines = [`${run.runId}  ${run.status}  ${run.updatedAt}${thread}`];
  if (run.status === 'done') lines.push(`  text: ${run.text}`);
  if (run.status === 'error') lines.push(`  error: ${run.error}`);
  if (run.status === 'running')
    lines.push(`  worker=${run.worker}  lease until ${run.leaseExpiresAt}`);
  if (run.status === 'running' && run.progress) {
    const { progress, total, message, toolName, toolCallId, at } = run.progress;
    const note = message === undefined ? '' : `  ${JSON.stringify(message)}`;
    lines.push(
      `  progress ${progress}${total === undefined ? '' : `/${total}`}  tool=${toolName} ${toolCallId}  at ${at}${note}`,
    );
  }
  if (run.status === 'suspended') {
    for (const p of run.pending) {
      const risk = p.risk ? `  risk=${p.risk}` : '';
      const reason =
        p.kind === 'suspend' ? `  reason=${JSON.stringify(p.reason ?? 'Suspended')}` : '';
      lines.push(`  pending ${p.kind} ${p.toolCallId}  tool=${p.toolName}${risk}${reason}`);
      lines.push(`    args=${JSON.stringify(p.args)}`);
      if (p.payload !== undefined) lines.push(`    payload=${JSON.stringify(p.payload)}`);
      // Stores keep only a hash of each token (decision 062): it is printed only in the
      // result that just suspended the run; otherwise the call is named by run and id.
      if (p.token !== undefined) lines.push(`    token=${p.token}`);
      else lines.push(`    decide: fino sessions approve ${run.runId} ${p.toolCallId}`);
    }
  }
  return lines;
};

const withoutState = ({ state: _state, ...run }: SessionRun) => run;

async function act(args: Args, runs: Session, io: CommandIo, hasAgent: boolean): Promise<number> {
  const { positional, options } = args;
  // Stored text (model output, errors, notes, arguments) is escaped: one field per line,
  // with no control sequence that could redraw the terminal or disguise another run.
  const print = (value: unknown, text: () => string[]) =>
    writeLine(
      io.stdout,
      args.json
        ? safeJson(value, 2)
        : text()
            .map((line) => escapeText(line))
            .join('\n'),
    );
  const actor = { by: options.get('--by'), note: options.get('--note') };
  switch (args.subcommand) {
    case 'list': {
      const status = options.get('--status');
      if (status !== undefined && !RUN_STATUSES.includes(status as RunStatus)) {
        throw new UsageError(
          `--status must be one of ${RUN_STATUSES.join(', ')}; got "${status}"`,
          hint,
        );
      }
      const list = await runs.list({
        status: status as RunStatus,
        threadId: options.get('--thread'),
      });
      const views = list.map((r) => (r.status === 'corrupt' ? r : withoutState(r)));
      print(views, () =>
        list.length === 0
          ? ['no runs']
          : list.flatMap((r) =>
              r.status === 'corrupt'
                ? [`${r.runId}  corrupt`, `  error: ${r.error}`]
                : describeRun(r),
            ),
      );
      return 0;
    }
    case 'show': {
      if (positional.length !== 1) throw new UsageError('show needs one run id', hint);
      const run = await runs.get(positional[0]);
      if (!run) {
        return reportProblem(
          io,
          `no run with id "${positional[0]}"`,
          'Run "fino sessions list" for the run ids.',
          EXIT.failure,
        );
      }
      print(run, () => [
        ...describeRun(run),
        ...(run.audit ?? []).map(
          (a) =>
            `  audit ${a.at} ${a.action}${a.toolCallId ? ` ${a.toolCallId}` : ''}${a.by ? ` by ${a.by}` : ''}${a.note ? `: ${a.note}` : ''}`,
        ),
      ]);
      return 0;
    }
    case 'cancel': {
      if (positional.length !== 1) throw new UsageError('cancel needs one run id', hint);
      const run = await runs.cancel(positional[0], actor);
      print(withoutState(run), () => describeRun(run));
      return 0;
    }
    default: {
      const target = ref(positional);
      let run: SessionRun;
      if (args.subcommand === 'approve') run = await runs.approve(target, actor);
      else if (args.subcommand === 'reject') {
        const reason = options.get('--reason');
        if (!reason) throw new UsageError('reject needs --reason <text>: the model reads it', hint);
        run = await runs.reject(target, reason, actor);
      } else {
        const text = options.get('--value');
        if (text === undefined) throw new UsageError('resume needs --value <json>', hint);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new UsageError(`--value must be JSON (quote strings: '"M"'); got ${text}`, hint);
        }
        run = await runs.resume(target, value, actor);
      }
      const note =
        run.status === 'ready' && !hasAgent
          ? ['  recorded; the run is ready for a worker (or pass --agent to continue it here)']
          : [];
      print(withoutState(run), () => [...describeRun(run), ...note]);
      return 0;
    }
  }
}

async function main(argv: string[], io: CommandIo): Promise<number> {
  if (argv[0] === 'serve') return serve(argv.slice(1), io, { openStore, loadAgent });
  if (asksForHelp(argv)) {
    writeLine(io.stdout, usage);
    return EXIT.ok;
  }
  const args = parseArgs(argv);
  const agentFile = args.options.get('--agent');
  const agent = agentFile === undefined ? undefined : await loadAgent(agentFile, io);
  const store = openStore(args.options.get('--db'), io);
  try {
    return await act(args, session({ store, agent }), io, agent !== undefined);
  } finally {
    await store.close();
  }
}

/** `fino sessions`: lists durable runs and approves, rejects or resumes their pending calls. */
export const sessions: Command = {
  name: 'sessions',
  usage,
  run: (argv, io) => main(argv, io).catch((error: unknown) => reportError(error, io)),
};
