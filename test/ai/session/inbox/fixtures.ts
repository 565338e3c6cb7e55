/**
 * What the inbox tests drive: an agent whose scripted model calls the tool named in the
 * user's message (JSON `{ tool, args }`) and then answers with the tool's result, over
 * two tools — `refund` (needs approval; counts its executions) and `ask_size` (suspends
 * for an answer with a declared JSON Schema).
 */
import { agent } from '../../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import {
  type Session,
  type SessionRun,
  type Store,
  session,
} from '../../../../src/ai/session/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

interface Request {
  messages: Array<{ role: string; content: string | Array<{ type: string; content?: unknown }> }>;
}

/** The model's next turn, read from the conversation so any run in any order gets the right one. */
function nextTurn(request: Request) {
  const last = request.messages[request.messages.length - 1];
  if (Array.isArray(last.content)) {
    const result = last.content.find((p) => p.type === 'tool_result');
    return `Finished: ${typeof result?.content === 'string' ? result.content : 'no result'}`;
  }
  const first = request.messages.find((m) => m.role === 'user');
  const { tool: name, args } = JSON.parse(String(first?.content)) as {
    tool: string;
    args: unknown;
  };
  return { toolCalls: [{ id: `${name}_1`, name, args }] };
}

/** The two tools, `refund` counting its executions in `executions.refund`. */
export function shopTools(executions: { refund: number }) {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    risk: 'destructive',
    sideEffects: true,
    execute: ({ orderId }: { orderId: string }) => {
      executions.refund++;
      return `refunded ${orderId}`;
    },
  });
  const askSize = tool({
    name: 'ask_size',
    description: 'Ask the customer for a size.',
    parameters: v.object({}),
    execute: (_args: Record<string, never>, ctx) =>
      ctx.resumeValue === undefined
        ? ctx.suspend('Which size?', { schema: { type: 'string', enum: ['S', 'M', 'L'] } })
        : `size ${String(ctx.resumeValue)}`,
  });
  return { refund, askSize };
}

/** A shop agent, its session over `store`, and how many times `refund` ran. */
export function shop(store: Store) {
  const executions = { refund: 0 };
  const { refund, askSize } = shopTools(executions);
  const model = scriptedModel(Array.from({ length: 500 }, () => nextTurn));
  const shopAgent = agent({ model, tools: [refund, askSize] });
  return { executions, agent: shopAgent, runs: session({ store, agent: shopAgent }) };
}

/** Starts a run that suspends on `tool` with `args`. */
export async function suspendOn(
  runs: Session,
  tool: string,
  args: unknown,
  runId?: string,
): Promise<SessionRun & { status: 'suspended' }> {
  const run = await runs.start(JSON.stringify({ tool, args }), { runId });
  if (run.status !== 'suspended') throw new Error(`expected suspended, got ${JSON.stringify(run)}`);
  return run;
}

/** GET and form POST to an inbox handler as a browser on `origin` would, and the page's CSRF value. */
export function browserLike(
  handle: (request: globalThis.Request) => Promise<Response>,
  origin: string,
) {
  const get = (path: string, headers: Record<string, string> = {}) =>
    handle(new globalThis.Request(`${origin}${path}`, { headers }));
  const csrfOf = async (path = '/', headers: Record<string, string> = {}) =>
    /name="csrf" value="([^"]+)"/.exec(await (await get(path, headers)).text())?.[1] ?? '';
  const post = (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    handle(
      new globalThis.Request(`${origin}${path}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  return { get, post, csrfOf };
}
