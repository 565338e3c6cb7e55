/**
 * `fino workflows schedules [list|show|pause|resume|delete] [id]`: the schedules of a
 * workflow store (decision 221) — when each ticks next, whether it is paused, what it
 * started last — and pausing, resuming and deleting them. Schedules are created in code
 * (`schedules({ store }).create`), where the workflow and its input schema are.
 */
import { UsageError } from '../../task/index.ts';
import { v } from '../../validate/index.ts';
import {
  DEFAULT_WORKFLOW_DB,
  schedules,
  type WorkflowSchedule,
  type WorkflowStore,
} from '../../workflow/index.ts';
import type { CommandIo } from '../command.ts';
import { databaseOption } from '../database-option.ts';
import { print, subcommand } from '../subcommand.ts';
import type { CommandTask } from '../task-command.ts';
import { byFlag, nameArgument, noteFlag } from './workflow-flags.ts';

const ACTIONS = ['list', 'show', 'pause', 'resume', 'delete'] as const;

/** One schedule on a line, then what it did last. */
export const describeSchedule = (s: WorkflowSchedule): string[] => [
  `${s.id}  ${s.workflowId}  ${s.cron ? `cron "${s.cron}"${s.timezone ? ` ${s.timezone}` : ''}` : `every ${s.every} ms`}  ${s.paused ? 'paused' : `next ${s.nextTick ?? 'never'}`}`,
  `  catch-up ${s.catchUp}${s.catchUp === 'all' ? ` (at most ${s.maxCatchUp})` : ''}${s.jitterMs ? `  jitter ≤ ${s.jitterMs} ms` : ''}  started ${s.ticksStarted}  missed ${s.ticksMissed}${s.lastRunId ? `  last ${s.lastTick} → ${s.lastRunId}` : ''}`,
  ...(s.audit ?? []).map(
    (a) => `  audit ${a.at} ${a.action}${a.by ? ` by ${a.by}` : ''}${a.note ? `: ${a.note}` : ''}`,
  ),
];

/** `fino workflows schedules`: list, show, pause, resume and delete schedules in the store `open` opens. */
export const schedulesCommand = (
  io: CommandIo,
  open: (db: string | undefined, io: CommandIo) => WorkflowStore,
): CommandTask =>
  subcommand(io, {
    name: 'schedules',
    description: 'Schedules: list, show <id>, pause <id>, resume <id>, delete <id>',
    inputSchema: v.object({
      action: v.enum(ACTIONS).optional().describe('what to do (default list)'),
      id: nameArgument('the schedule id (as "list" prints it)').optional(),
      workflow: nameArgument('list only the schedules of this workflow id').optional(),
      db: databaseOption(DEFAULT_WORKFLOW_DB),
      by: byFlag,
      note: noteFlag,
    }),
    positionals: ['action', 'id'],
    run: async (given, out) => {
      const action = given.action ?? 'list';
      if (action !== 'list' && !given.id) {
        throw new UsageError(
          `schedules ${action} needs a schedule id`,
          'Run "fino workflows schedules" to list them.',
        );
      }
      const store = open(given.db, io);
      try {
        const all = schedules({ store });
        const actor = {
          ...(given.by ? { by: given.by } : {}),
          ...(given.note ? { note: given.note } : {}),
        };
        if (action === 'list') {
          const list = await all.list(given.workflow ? { workflowId: given.workflow } : {});
          return print(out, list, () =>
            list.length === 0 ? ['no schedules'] : list.flatMap(describeSchedule),
          );
        }
        const id = given.id!;
        if (action === 'delete') {
          await all.delete(id, actor);
          return print(out, { id, deleted: true }, () => [
            `schedule "${id}" deleted; the runs it started stay`,
          ]);
        }
        const shown = action === 'show' ? await all.get(id) : await all[action](id, actor);
        return print(out, shown, () => describeSchedule(shown));
      } finally {
        await store.close();
      }
    },
  });
