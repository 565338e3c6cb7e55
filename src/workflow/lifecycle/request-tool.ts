/**
 * `workflowRequestTool(workflow, { store, query | update })`: a query or an update of a
 * workflow's runs as a fino `Tool` (decision 226) — to serve over MCP beside
 * `workflowTool`, or to hand to an agent. Its arguments name the run and carry the
 * request's arguments; an update's id is the call's idempotency key, so a retried call
 * is applied once.
 */
import { type Tool, tool } from '../../ai/tool/index.ts';
import { v } from '../../validate/index.ts';
import type { WorkflowStore } from '../types.ts';
import type { Workflow } from '../workflow.ts';
import { sendQuery, sendUpdate } from './requests.ts';
import { resultOf } from './workflow-tool.ts';

/** Options of {@link workflowRequestTool}: exactly one of `query` and `update`. */
export type WorkflowRequestToolOptions = {
  /** The store of the runs; a worker over the same store answers. */
  store: WorkflowStore;
  /** The tool's name (default `<workflow id>_<query or update name>`, other characters as `_`). */
  name?: string;
  /** What the tool does (default: names the request and the workflow). */
  description?: string;
  /** How long a call waits for its answer, in ms (default 30 000). */
  timeoutMs?: number;
} & ({ query: string; update?: never } | { update: string; query?: never });

/**
 * A query or an update of `definition`'s runs as a `Tool` taking `{ runId, args }`.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, worker, workflow, workflowRequestTool } from 'fino:workflow';
 *
 * const counter = workflow({
 *   id: 'counter',
 *   async run(ctx) {
 *     let count = 0;
 *     ctx.onQuery('count', () => count);
 *     ctx.onUpdate('add', (n: number) => (count += n));
 *     await ctx.waitForSignal('stop');
 *   },
 * });
 * const store = memoryWorkflowStore();
 * const w = worker({ store, workflows: [counter], pollMs: 20 });
 * await w.start();
 * const { runId } = await counter.start(undefined, { store });
 * const add = workflowRequestTool(counter, { store, update: 'add' });
 * console.log(add.name, (await add.invoke({ runId, args: 2 })).content); // counter_add 2
 * await w.stop();
 * await store.close();
 * ```
 */
export function workflowRequestTool(
  definition: Workflow<any, any>,
  options: WorkflowRequestToolOptions,
): Tool<{ runId: string; args?: unknown }> {
  const kind = options.query !== undefined ? 'query' : 'update';
  const requestName = options.query ?? options.update;
  if (typeof requestName !== 'string' || requestName === '') {
    throw new TypeError(
      `workflowRequestTool(${definition?.id}): expected { query: name } or { update: name }`,
    );
  }
  const { store } = options;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  return tool<{ runId: string; args?: unknown }>({
    name:
      options.name ??
      `${definition.id}_${requestName}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
    description:
      options.description ??
      `${kind === 'query' ? 'Asks the query' : 'Sends the update'} "${requestName}" to a run of the durable workflow "${definition.id}" and returns its result.`,
    parameters: v.object({
      runId: v.string().min(1).describe('the run id'),
      args: v.any().optional().describe('the arguments (JSON)'),
    }),
    idempotent: kind === 'query',
    async execute({ runId, args }, ctx) {
      const result =
        kind === 'query'
          ? await sendQuery(runId, requestName, args, { store, ...timeout }, definition.id)
          : await sendUpdate(
              runId,
              requestName,
              args,
              {
                store,
                ...timeout,
                ...(ctx.idempotencyKey === undefined
                  ? {}
                  : { updateId: ctx.idempotencyKey.slice(0, 200) }),
              },
              definition.id,
            );
      return resultOf(result) as never;
    },
  });
}
