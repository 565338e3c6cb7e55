/**
 * `workflowTool(workflow, { store })`: a workflow as a fino `Tool` — to serve over MCP as a
 * durable MCP Task, or to hand to an agent. A call starts a run (once per call: the run's
 * key is the call's idempotency key) and waits for its end; the run's output is the result.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type Tool, tool } from '../../ai/tool/index.ts';
import { sha256Hex } from '../../internal/sha256.ts';
import type { TaskExecution } from '../../task/index.ts';
import type { SchemaLike } from '../../validate/index.ts';
import { WorkflowError } from '../errors.ts';
import type { WorkflowStore } from '../types.ts';
import type { Workflow } from '../workflow.ts';
import type { RunWaitingOn } from './view.ts';

/** Options of {@link workflowTool}. */
export interface WorkflowToolOptions {
  /** The store the runs go to; a worker over the same store drives them. */
  store: WorkflowStore;
  /** The tool's name (default: the workflow id, with characters other than letters, digits, `_` and `-` as `_`). */
  name?: string;
  /** What the tool does, for the model or the MCP client (default: names the workflow). */
  description?: string;
  /** How MCP clients call it (default `'task'`: as a durable MCP Task). */
  execution?: TaskExecution;
  /** How often the call looks at the run while it goes on, in milliseconds (default 500). */
  pollMs?: number;
}

/** A key longer than a store takes is hashed (keys are at most 512 characters). */
const keyOf = (key: string) => (key.length <= 400 ? key : `sha256:${sha256Hex(key)}`);

/**
 * A run's output as a tool result: a string as text, nothing as empty text, any other JSON
 * as its text — and an object also as `structuredContent` (what an MCP output schema checks).
 */
export function resultOf(output: unknown) {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  const text = JSON.stringify(output);
  return output !== null && typeof output === 'object' && !Array.isArray(output)
    ? { content: text, structuredContent: output }
    : { content: text };
}

/** What a waiting run waits on, in words, for the call's progress message. */
function waitingText(on: RunWaitingOn | undefined): string {
  if (!on) return 'running';
  const parts = [
    ...on.decisions.map((d) => `decision ${d}`),
    ...on.signals.map((s) => `signal "${s}"`),
    ...(on.children ?? []).map((c) => `child run ${c}`),
    ...(on.timer === undefined ? [] : [`timer (${on.timer})`]),
  ];
  return parts.length === 0 ? 'waiting' : `waiting for ${parts.join(', ')}`;
}

/**
 * A workflow as a `Tool`: its parameters are the workflow's input schema, a call starts a
 * run and returns the run's output (an `isError` result when the run fails or is
 * cancelled). The run's key is the call's idempotency key — the MCP task's id when served
 * as an MCP Task, `<runId>:<callId>` in an agent — so a call continued after a server
 * restart waits for the same run instead of starting another; the tool is therefore
 * `idempotent`. Progress reports what the run waits on. Cancelling the call (or the MCP
 * task) stops the waiting, not the run: cancel the run with the workflow's `cancel`. A
 * worker over the same store must drive the runs. See docs/workflow.md.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, worker, workflow, workflowTool } from 'fino:workflow';
 * import { v } from 'fino:validate';
 *
 * const greet = workflow({
 *   id: 'greet',
 *   input: v.object({ name: v.string() }),
 *   run: (ctx, { name }) => ctx.step('compose', () => `Hello, ${name}!`),
 * });
 * const store = memoryWorkflowStore();
 * const w = worker({ store, workflows: [greet], pollMs: 20 });
 * await w.start();
 * const greetTool = workflowTool(greet, { store });
 * console.log(greetTool.name, greetTool.execution); // greet task
 * const result = await greetTool.invoke({ name: 'Ana' }, { idempotencyKey: 'call-1' });
 * console.log(result.content); // Hello, Ana!
 * await w.stop();
 * await store.close();
 * ```
 */
export function workflowTool<Input, Output>(
  definition: Workflow<Input, Output>,
  options: WorkflowToolOptions,
): Tool<Input> {
  if (!definition || typeof definition.start !== 'function' || typeof definition.id !== 'string') {
    throw new TypeError(
      `workflowTool(workflow, options): expected a workflow (from workflow({ … })), received ${typeof definition}`,
    );
  }
  const store = options?.store;
  if (!store || typeof store.get !== 'function' || typeof store.create !== 'function') {
    throw new TypeError(
      `workflowTool(${definition.id}): store: expected a workflow store such as sqliteWorkflowStore(), received ${store === null ? 'null' : typeof store}`,
    );
  }
  const pollMs = options.pollMs ?? 500;
  if (!Number.isFinite(pollMs) || pollMs < 1) {
    throw new RangeError(
      `workflowTool(${definition.id}): pollMs: expected a number of milliseconds ≥ 1, received ${String(pollMs)}`,
    );
  }
  const { input, output } = definition.options;
  return tool<Input>({
    name: options.name ?? definition.id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
    description:
      options.description ?? `Runs the durable workflow "${definition.id}" and returns its output.`,
    ...(input === undefined ? {} : { parameters: input }),
    ...(output === undefined ? {} : { outputSchema: output as SchemaLike }),
    execution: options.execution ?? 'task',
    idempotent: true,
    async execute(args, ctx) {
      const key = ctx.idempotencyKey === undefined ? undefined : keyOf(ctx.idempotencyKey);
      const { runId } = await definition.start(args, {
        store,
        ...(key === undefined ? {} : { key }),
      });
      let said = '';
      for (let wait = 10; ; wait = Math.min(wait * 2, pollMs)) {
        const run = await definition.get(runId, { store });
        if (run.status === 'done') return resultOf(run.output) as never;
        if (run.status === 'error' || run.status === 'cancelled') {
          throw new WorkflowError(
            run.status === 'error' ? 'RUN_FAILED' : 'CANCELLED',
            `workflow run "${runId}" ${run.status === 'error' ? `failed: ${run.error?.message ?? 'unknown error'}` : 'was cancelled'}`,
            { runId },
          );
        }
        const now = `run ${runId}: ${run.status === 'waiting' ? waitingText(run.waitingOn) : 'running'}`;
        if (now !== said) {
          said = now;
          ctx.progress({
            progress: (await definition.history(runId, { store })).length,
            message: now,
          });
        }
        await delay(wait, undefined, { signal: ctx.signal });
      }
    },
  });
}
