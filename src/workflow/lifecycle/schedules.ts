/**
 * `schedules({ store })`: workflow runs started on a schedule (decisions 221–223) —
 * create, get, list, pause, resume, delete. Workers fire the ticks; this is the caller's
 * side, with the schedule as callers see it.
 */
import { canonicalJson } from '../../internal/canonical-json.ts';
import { WorkflowError } from '../errors.ts';
import { DEFAULT_MAX_VALUE_BYTES, fromCheckpoint, toCheckpoint } from '../json-value.ts';
import { readScheduleSpec } from '../schedule-spec.ts';
import type { CatchUpPolicy, ScheduleSpec, StoredSchedule } from '../schedule-types.ts';
import type { WorkflowActor, WorkflowAuditEntry, WorkflowStore } from '../types.ts';
import type { StoreOption } from '../workflow.ts';
import { checkValue, readWorkflowOptions, WORKFLOW_ID_RULE } from '../workflow-settings.ts';
import { actorOf, storeOf } from './lifecycle.ts';

/** A schedule as `schedules()` shows it: times in ISO 8601. */
export interface WorkflowSchedule {
  id: string;
  workflowId: string;
  cron?: string;
  every?: number;
  timezone?: string;
  catchUp: CatchUpPolicy;
  maxCatchUp: number;
  jitterMs: number;
  input: unknown;
  paused: boolean;
  /** The next tick (its run's key is `schedule:<id>:<nextTick>`); absent when the cron expression fires no more. */
  nextTick?: string;
  /** When a worker starts it: the tick plus its jitter. */
  dueAt?: string;
  /** The last tick that started a run, and that run. */
  lastTick?: string;
  lastRunId?: string;
  /** Ticks that started a run, and ticks the catch-up policy passed over. */
  ticksStarted: number;
  ticksMissed: number;
  createdAt: string;
  updatedAt: string;
  /** Who created, paused and resumed it (filled by `get`). */
  audit?: WorkflowAuditEntry[];
}

/** The schedules of a store. */
export interface WorkflowSchedules {
  /**
   * Creates a schedule (workers of its workflow fire its ticks). Creating it again with the
   * same spec returns it (`created: false`), so an application may create its schedules at
   * every start; another spec under the same id is `KEY_CONFLICT` (delete it first).
   */
  create(
    spec: ScheduleSpec,
    actor?: WorkflowActor,
  ): Promise<WorkflowSchedule & { created: boolean }>;
  /** One schedule with its audit trail; `NOT_FOUND` for an unknown id. */
  get(id: string): Promise<WorkflowSchedule>;
  /** Schedules by id (of one workflow with `workflowId`), at most `limit` (default 1 000) after the id `after`. */
  list(filter?: {
    workflowId?: string;
    limit?: number;
    after?: string;
  }): Promise<WorkflowSchedule[]>;
  /** Stops its ticks until `resume`. */
  pause(id: string, actor?: WorkflowActor): Promise<WorkflowSchedule>;
  /** Ticks again from now on: the ticks it missed while paused are not started. */
  resume(id: string, actor?: WorkflowActor): Promise<WorkflowSchedule>;
  /** Deletes it; the runs it started stay. */
  delete(id: string, actor?: WorkflowActor): Promise<void>;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** A stored schedule as callers see it. */
export function scheduleView(stored: StoredSchedule): WorkflowSchedule {
  const { settings } = stored;
  const optional = {
    cron: settings.cron,
    every: settings.every,
    timezone: settings.timezone,
    nextTick: iso(stored.nextTick),
    dueAt: iso(stored.dueAt),
    lastTick: iso(stored.lastTick),
    lastRunId: stored.lastRunId,
  };
  return {
    id: stored.scheduleId,
    workflowId: stored.workflowId,
    ...(Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) as object),
    catchUp: settings.catchUp,
    maxCatchUp: settings.maxCatchUp,
    jitterMs: settings.jitterMs,
    input: fromCheckpoint(stored.input),
    paused: stored.paused,
    ticksStarted: stored.fired,
    ticksMissed: stored.missed,
    createdAt: new Date(stored.createdAt).toISOString(),
    updatedAt: new Date(stored.updatedAt).toISOString(),
  };
}

/**
 * The schedules of `store`: each tick of a schedule starts one run of its workflow, with
 * the key `schedule:<id>:<tick ISO>`, in whichever worker of that workflow fires it first.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, schedules, worker, workflow } from 'fino:workflow';
 *
 * const report = workflow({ id: 'report', run: (ctx) => ctx.step('send', () => 'sent') });
 * const store = memoryWorkflowStore();
 * const hourly = await schedules({ store }).create({
 *   id: 'hourly-report',
 *   workflow: report,
 *   cron: '0 * * * *',
 *   timezone: 'Europe/Oslo',
 *   startAt: Date.now() - 3 * 3_600_000, // missed three ticks
 *   catchUp: 'all',
 * });
 * console.log(hourly.created, hourly.catchUp); // true all
 * await worker({ store, workflows: [report] }).drain(); // starts and runs the missed ticks
 * console.log((await report.list({ store, status: 'done' })).length); // 3
 * await store.close();
 * ```
 */
export function schedules(options: StoreOption): WorkflowSchedules {
  const store = storeOf(options);
  const found = async (id: unknown) => {
    if (typeof id !== 'string' || id === '') {
      throw new WorkflowError('INVALID_ARGUMENT', `expected a schedule id, received ${typeof id}`);
    }
    const stored = await store.getSchedule(id);
    if (!stored) throw new WorkflowError('NOT_FOUND', `no schedule with id "${id}"`);
    return stored;
  };
  const pausing = async (id: string, paused: boolean, actor?: WorkflowActor) => {
    await found(id);
    return scheduleView(await store.pauseSchedule(id, paused, actorOf(actor ?? {})));
  };
  return {
    create: (spec, actor) => createSchedule(store, spec, actor),
    async get(id) {
      const view = scheduleView(await found(id));
      view.audit = await store.audit(`schedule:${id}`);
      return view;
    },
    async list(filter) {
      return (await store.listSchedules(filter)).map(scheduleView);
    },
    pause: (id, actor) => pausing(id, true, actor),
    resume: (id, actor) => pausing(id, false, actor),
    async delete(id, actor) {
      await found(id);
      await store.deleteSchedule(id, actorOf(actor ?? {}));
    },
  };
}

/** Checks `spec`, its input against the workflow's schema when given the definition, and creates it once. */
async function createSchedule(
  store: WorkflowStore,
  spec: ScheduleSpec,
  actor: WorkflowActor | undefined,
): Promise<WorkflowSchedule & { created: boolean }> {
  const { id, settings, firstTick } = readScheduleSpec(spec, Date.now());
  const { workflowId, input } = await readScheduleInput(spec, settings);
  const { schedule, created } = await store.createSchedule(
    { scheduleId: id, workflowId, settings, ...(input === undefined ? {} : { input }), firstTick },
    actorOf(actor ?? {}),
  );
  const same = (s: StoredSchedule) =>
    canonicalJson([s.workflowId, { ...s.settings, anchor: 0 }, s.input ?? null]);
  if (!created && same(schedule) !== same({ ...schedule, workflowId, settings, input })) {
    throw new WorkflowError(
      'KEY_CONFLICT',
      `schedule "${id}" already exists with another workflow, timing or input; delete it first to change it`,
    );
  }
  return { ...scheduleView(schedule), created };
}

/** The workflow id and input text of `spec`: checked against the workflow's input schema when it is the definition. */
async function readScheduleInput(
  spec: ScheduleSpec,
  settings: { signals?: string[] },
): Promise<{ workflowId: string; input: string | undefined }> {
  const { workflow } = spec;
  if (typeof workflow === 'string') {
    if (!WORKFLOW_ID_RULE.test(workflow))
      throw new WorkflowError(
        'INVALID_ARGUMENT',
        `schedules.create: workflow: expected a workflow or its id (1 to 128 letters, digits or . _ : / -), received ${JSON.stringify(workflow.slice(0, 80))}`,
      );
    return {
      workflowId: workflow,
      input: toCheckpoint(
        spec.input,
        `the input of schedule "${spec.id}"`,
        DEFAULT_MAX_VALUE_BYTES,
      ),
    };
  }
  if (!workflow || typeof workflow !== 'object' || typeof workflow.id !== 'string') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `schedules.create: workflow: expected a workflow or its id, received ${workflow === null ? 'null' : typeof workflow}`,
    );
  }
  const checked = readWorkflowOptions(workflow.options);
  const what = `the input of schedule "${spec.id}" (workflow "${workflow.id}")`;
  const { value } = await checkValue(checked.input, spec.input, 'INVALID_INPUT', what);
  if (checked.signalNames) settings.signals = [...checked.signalNames];
  return { workflowId: workflow.id, input: toCheckpoint(value, what, checked.maxValueBytes) };
}
