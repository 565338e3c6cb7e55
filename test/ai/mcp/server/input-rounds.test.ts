/**
 * `ctx.sample()`, `ctx.elicit()` and approvals by form on the 2026-07-28 revision, which
 * has no server-to-client requests: the server answers with input-required results
 * (SEP-2322) and the client calls again with the answers. Fino's own client against
 * fino's server over Streamable HTTP in the default negotiation, and the official v2 SDK
 * client; the 2025-era clients are covered by server-requests.test.ts.
 */
import { join } from 'node:path';
import {
  Client,
  type CreateMessageResult,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpClient, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { sqliteStore } from '../../../../src/ai/session/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { modernRequest } from '../fixtures/modern-http.ts';

const runs = { ask_both: 0 };

const askBoth = tool({
  name: 'ask_both',
  description: "Asks the client's model, then its user.",
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    runs.ask_both++;
    const hello = { role: 'user' as const, content: 'Say hello.' };
    const sampled = await ctx.sample({ messages: [hello], maxTokens: 20 });
    const schema = { type: 'object' as const, properties: { name: { type: 'string' } } };
    const answered = await ctx.elicit({
      message: 'Your name?',
      schema: { ...schema, required: ['name'] },
    });
    return `${sampled.text} / ${JSON.stringify(answered)}`;
  },
});

const publish = tool({
  name: 'publish',
  description: 'Publishes the site.',
  parameters: v.object({ site: v.string() }),
  requiresApproval: true,
  execute: ({ site }: { site: string }) => `Published ${site}.`,
});

const confirmAtOnce = tool({
  name: 'confirm_at_once',
  description: 'Asks two things at once.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const [first, second] = await Promise.all([
      ctx.elicit({
        key: 'first',
        message: 'First?',
        schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      }),
      ctx.sample({ key: 'second', messages: [{ role: 'user', content: 'Second?' }], maxTokens: 5 }),
    ]);
    return `${first.action} ${second.text}`;
  },
});

const formThenQuestion = tool({
  name: 'form_then_question',
  description: 'Asks a form, pauses with a question, then asks another form.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const nameForm = { type: 'object' as const, properties: { name: { type: 'string' } } };
    const first = await ctx.elicit({ key: 'first', message: 'First?', schema: nameForm });
    if (ctx.resumeValue === undefined) ctx.suspend('Really?');
    const second = await ctx.elicit({ key: 'second', message: 'Second?', schema: nameForm });
    return JSON.stringify([first, ctx.resumeValue, second]);
  },
});

const SAMPLED: CreateMessageResult = {
  model: 'test-model',
  role: 'assistant',
  content: { type: 'text', text: 'Hello!' },
};
const EXPECTED = 'Hello! / {"action":"accept","content":{"name":"Ana"}}';

/** A `fetch` that keeps the body of every `tools/call` response, to see what crossed the wire. */
/** Records the answers to `tools/call` in `bodies`, and the `tasks/update` requests sent in `updates`. */
function recordingFetch(bodies: Promise<string>[], updates: string[] = []): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const sent = String(init?.body);
    if (sent.includes('"method":"tools/call"')) bodies.push(response.clone().text());
    if (sent.includes('"method":"tasks/update"')) updates.push(sent);
    return response;
  };
}

describe('server-to-client input on MCP 2026-07-28', () => {
  const dir = tempDir('input-rounds');
  const store = sqliteStore(join(dir, 'tasks.db'));
  const askInTask = tool({
    name: 'ask_in_task',
    description: 'A durable task tool that asks its user.',
    parameters: v.object({}),
    execution: 'task',
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Color?',
        schema: { type: 'object', properties: { color: { type: 'string' } } },
      });
      return JSON.stringify(answer);
    },
  });
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await mcpServer({
      name: 'asker',
      version: '1.0.0',
      tools: [askBoth, publish, confirmAtOnce, askInTask, formThenQuestion],
      store,
    }).listen({ port: 0 });
  });
  afterAll(async () => {
    await http.close();
    await store.close();
  });

  it("fino's client gets sampling, forms and approval by form from fino's server (default negotiation)", async () => {
    const bodies: Promise<string>[] = [];
    const updates: string[] = [];
    const asked: string[] = [];
    const client = mcpClient({
      transport: new StreamableHTTPClientTransport(new URL(http.url), {
        fetch: recordingFetch(bodies, updates),
      }),
      onSample: () => SAMPLED,
      onElicit: (request): ElicitResult => {
        asked.push(request.message);
        if (request.message.startsWith('Allow')) {
          return { action: 'accept', content: { approve: true } };
        }
        return request.message === 'Color?'
          ? { action: 'accept', content: { color: 'teal' } }
          : { action: 'accept', content: { name: 'Ana' } };
      },
      approveDestructive: false,
    });
    const tools = new Map((await client.tools()).map((found) => [found.name, found]));
    const text = async (name: string, args: unknown) =>
      (await tools.get(name)?.invoke(args, { signal: AbortSignal.timeout(10_000) } as never))
        ?.content;

    const before = runs.ask_both;
    expect(await text('ask_both', {})).toEqual([{ type: 'text', text: EXPECTED }]);
    expect(runs.ask_both - before).toBe(3); // asked twice: the tool ran again with each answer
    expect(await text('publish', { site: 'blog' })).toEqual([
      { type: 'text', text: 'Published blog.' },
    ]);
    expect(await text('ask_in_task', {})).toEqual([
      { type: 'text', text: '{"action":"accept","content":{"color":"teal"}}' },
    ]);
    expect(asked).toEqual(['Your name?', 'Allow "publish" with {"site":"blog"}?', 'Color?']);
    // Proof of the era: the direct calls' answers came back as input-required results (two
    // for ask_both, one for publish); the durable task's question went out on tasks/get and
    // its answer came back through tasks/update (decisions 242, 243).
    await client.close();
    const answered = await Promise.all(bodies);
    expect(answered.filter((body) => body.includes('"resultType":"input_required"'))).toHaveLength(
      3,
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]).toContain('"color":"teal"');
  });

  it('asks what the tool asks at once in one round, under the keys it names', async () => {
    const first = await modernRequest(http.url, 'tools/call', {
      name: 'confirm_at_once',
      arguments: {},
    });
    expect(first.result.resultType).toBe('input_required');
    expect(Object.keys(first.result.inputRequests).sort()).toEqual(['first', 'second']);
    expect(first.result.inputRequests.first.method).toBe('elicitation/create');
    expect(first.result.inputRequests.second.method).toBe('sampling/createMessage');
    const done = await modernRequest(http.url, 'tools/call', {
      name: 'confirm_at_once',
      arguments: {},
      inputResponses: { first: { action: 'decline' }, second: SAMPLED },
      requestState: first.result.requestState,
    });
    expect(done.result.content).toEqual([{ type: 'text', text: 'decline Hello!' }]);
  });

  it("keeps a form's answer across a suspension, and the suspension's answer across a form", async () => {
    const accept = (name: string) => ({ action: 'accept', content: { name } });
    let round = await modernRequest(http.url, 'tools/call', {
      name: 'form_then_question',
      arguments: {},
    });
    const answers: Record<string, unknown> = {
      first: accept('Ana'),
      answer: { action: 'accept', content: { answer: 'yes' } },
      second: accept('Bob'),
    };
    const asked: string[] = [];
    while (round.result?.resultType === 'input_required') {
      const [key] = Object.keys(round.result.inputRequests);
      asked.push(key);
      round = await modernRequest(http.url, 'tools/call', {
        name: 'form_then_question',
        arguments: {},
        inputResponses: { [key]: answers[key] },
        requestState: round.result.requestState,
      });
    }
    expect(asked).toEqual(['first', 'answer', 'second']);
    expect(JSON.parse(round.result.content[0].text)).toEqual([accept('Ana'), 'yes', accept('Bob')]);
  });

  it('answers the official v2 SDK client on 2026-07-28: sampling, a form, an approval', async () => {
    const client = new Client(
      { name: 'v2-modern', version: '1.0.0' },
      {
        capabilities: { sampling: {}, elicitation: { form: {} } },
        versionNegotiation: { mode: 'auto' },
      },
    );
    client.setRequestHandler('sampling/createMessage', () => SAMPLED);
    client.setRequestHandler(
      'elicitation/create',
      (request): ElicitResult => ({
        action: 'accept',
        content: request.params.message.startsWith('Allow') ? { approve: true } : { name: 'Ana' },
      }),
    );
    const bodies: Promise<string>[] = [];
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { fetch: recordingFetch(bodies) }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const texts: unknown[] = [];
    for (const [name, args] of [
      ['ask_both', {}],
      ['publish', { site: 'docs' }],
    ] as const) {
      const signal = AbortSignal.timeout(10_000);
      texts.push((await client.callTool({ name, arguments: args }, { signal })).content);
    }
    expect(texts).toEqual([
      [{ type: 'text', text: EXPECTED }],
      [{ type: 'text', text: 'Published docs.' }],
    ]);
    await client.close();
    const inputRequired = (await Promise.all(bodies)).filter((body) =>
      body.includes('"resultType":"input_required"'),
    );
    expect(inputRequired).toHaveLength(3);
  });

  it('answers a 2026 client without the capability -32021 with HTTP 400, naming it (decision 209)', async () => {
    const answer = await modernRequest(
      http.url,
      'tools/call',
      { name: 'ask_both', arguments: {} },
      { elicitation: { form: {} } },
    );
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32021);
    expect(answer.error?.message).toContain(
      'this MCP client cannot sample (it declares no sampling capability)',
    );
  });
});
