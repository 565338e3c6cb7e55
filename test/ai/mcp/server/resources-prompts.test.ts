/**
 * Resources, templates, prompts, completions, logging, sampling and elicitation forms
 * between fino's server and fino's client (over the SDK's in-memory transport).
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  type McpClientOptions,
  type McpToolServer,
  mcpClient,
  mcpServer,
  prompt,
  resource,
  resourceTemplate,
} from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

const readme = resource({
  uri: 'docs://readme',
  name: 'readme',
  description: 'The readme.',
  mimeType: 'text/markdown',
  read: () => '# Hello',
});
const note = resourceTemplate({
  uriTemplate: 'notes://{name}',
  name: 'note',
  mimeType: 'text/plain',
  complete: {
    name: (typed) => ['groceries', 'gardening', 'ideas'].filter((n) => n.startsWith(typed)),
  },
  read: ({ name }) => `The note called ${name}.`,
});
const review = prompt({
  name: 'review',
  description: 'Ask for a review.',
  arguments: v.object({ language: v.string(), code: v.string() }),
  complete: {
    language: (typed, { arguments: given }) => [
      `${typed}script`,
      ...(given.code ? ['with-code'] : []),
    ],
  },
  get: ({ language, code }) => `Review this ${language}:\n${code}`,
});
const form = {
  type: 'object' as const,
  properties: { name: { type: 'string' }, age: { type: 'integer', default: 30 } },
  required: ['name'],
};
const tools = [
  tool({
    name: 'chatty',
    description: 'Logs at two levels.',
    parameters: v.object({}),
    execute: (_args, ctx) => {
      ctx.log('debug', 'details');
      ctx.log('warning', 'careful', { disk: 0.93 });
      return 'done';
    },
  }),
  tool({
    name: 'ask_model',
    description: "Asks the client's model.",
    parameters: v.object({ question: v.string() }),
    execute: async ({ question }, ctx) =>
      (await ctx.sample({ messages: [{ role: 'user', content: question }], maxTokens: 50 })).text,
  }),
  tool({
    name: 'ask_person',
    description: 'Asks a form.',
    parameters: v.object({}),
    execute: async (_args, ctx) =>
      JSON.stringify(await ctx.elicit({ message: 'Who are you?', schema: form })),
  }),
  tool({
    name: 'bad_form',
    description: 'Asks a nested form.',
    parameters: v.object({}),
    execute: async (_args, ctx) =>
      JSON.stringify(
        await ctx.elicit({
          message: 'Address?',
          schema: { type: 'object', properties: { address: { type: 'object' } } },
        }),
      ),
  }),
];

async function connect(
  options: Omit<McpClientOptions, 'transport'> = {},
): Promise<{ server: McpToolServer; client: ReturnType<typeof mcpClient> }> {
  const server = mcpServer({
    name: 'all',
    version: '1.0.0',
    tools,
    resources: [readme, note],
    prompts: [review],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = mcpClient({ transport: clientSide, ...options });
  await client.connect();
  return { server, client };
}

const textOf = (result: { content: unknown }) =>
  (result.content as { text?: string }[]).map((p) => p.text).join('\n');

describe('resources', () => {
  it('lists resources and templates, reads both, and completes template variables', async () => {
    const { client } = await connect();
    const { resources, templates } = await client.resources();
    expect(resources).toEqual([
      {
        uri: 'docs://readme',
        name: 'readme',
        description: 'The readme.',
        mimeType: 'text/markdown',
      },
    ]);
    expect(templates).toEqual([
      { uriTemplate: 'notes://{name}', name: 'note', mimeType: 'text/plain' },
    ]);
    expect(await client.readResource('docs://readme')).toEqual({
      contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }],
    });
    expect(await client.resourceParts('notes://ideas')).toEqual([
      {
        type: 'resource',
        uri: 'notes://ideas',
        mediaType: 'text/plain',
        text: 'The note called ideas.',
      },
    ]);
    expect(
      await client.complete(
        { type: 'ref/resource', uri: 'notes://{name}' },
        { name: 'name', value: 'g' },
      ),
    ).toEqual(['groceries', 'gardening']);
    await expect(client.readResource('docs://missing')).rejects.toThrow(
      /Resource not found: docs:\/\/missing/,
    );
    await client.close();
  });

  it('tells subscribers when a resource changes, and stops after unsubscribing', async () => {
    const { server, client } = await connect();
    const heard: string[] = [];
    const stop = await client.subscribe('docs://readme', (uri) => heard.push(uri));
    server.notifyResourceUpdated('docs://readme');
    server.notifyResourceUpdated('notes://other');
    await expect.poll(() => heard).toEqual(['docs://readme']);
    await stop();
    server.notifyResourceUpdated('docs://readme');
    await client.readResource('docs://readme'); // a round trip: a notification sent would have arrived
    expect(heard).toEqual(['docs://readme']);
    await client.close();
  });

  it('adds and removes resources at runtime', async () => {
    const { server, client } = await connect();
    server.addResource(resource({ uri: 'docs://new', name: 'new', read: () => 'fresh' }));
    expect((await client.resources()).resources.map((r) => r.uri)).toEqual([
      'docs://readme',
      'docs://new',
    ]);
    expect(server.removeResource('docs://new')).toBe(true);
    expect(server.removeResource('docs://new')).toBe(false);
    expect(() => server.addResource(readme)).toThrow(
      'the resource "docs://readme" is already served',
    );
    await client.close();
  });
});

describe('prompts', () => {
  it('lists prompts with their arguments and fills them in', async () => {
    const { client } = await connect();
    expect(await client.prompts()).toEqual([
      {
        name: 'review',
        description: 'Ask for a review.',
        arguments: [
          { name: 'language', required: true },
          { name: 'code', required: true },
        ],
      },
    ]);
    expect(await client.promptMessages('review', { language: 'go', code: 'x := 1' })).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Review this go:\nx := 1' }] },
    ]);
    expect(
      await client.complete(
        { type: 'ref/prompt', name: 'review' },
        { name: 'language', value: 'type' },
        { code: 'x' },
      ),
    ).toEqual(['typescript', 'with-code']);
    await client.close();
  });

  it("rejects bad arguments with fino's field-by-field message", async () => {
    const { client } = await connect();
    await expect(client.getPrompt('review', { language: 'go' })).rejects.toThrow(
      /Prompt "review" got invalid arguments:[\s\S]*code/,
    );
    await expect(client.getPrompt('nope')).rejects.toThrow(
      'Unknown prompt "nope". Available prompts: review.',
    );
    await client.close();
  });

  it('refuses prompt arguments that are not strings, at construction', () => {
    expect(() =>
      prompt({ name: 'p', arguments: v.object({ n: v.number() }), get: () => '' }),
    ).toThrow('prompt "p": arguments.n: expected a string property');
  });
});

describe('logging, sampling and elicitation from a tool', () => {
  it('sends log messages at or above the level the client set', async () => {
    const logged: unknown[] = [];
    const { client } = await connect({ onLog: (message) => logged.push(message) });
    await client.setLogLevel('info');
    const chatty = (await client.tools()).find((t) => t.name === 'chatty')!;
    await chatty.invoke({});
    await expect
      .poll(() => logged)
      .toEqual([{ level: 'warning', data: { message: 'careful', data: { disk: 0.93 } } }]);
    await client.close();
  });

  it("answers ctx.sample() with the client's onSample, and says so when there is none", async () => {
    const { client } = await connect({
      onSample: (request) => ({
        role: 'assistant',
        model: 'local',
        content: {
          type: 'text',
          text: `echo: ${(request.messages[0].content as { text: string }).text}`,
        },
      }),
    });
    const ask = (await client.tools()).find((t) => t.name === 'ask_model')!;
    expect(textOf(await ask.invoke({ question: 'hi' }))).toBe('echo: hi');
    await client.close();

    const { client: plain } = await connect();
    const askPlain = (await plain.tools()).find((t) => t.name === 'ask_model')!;
    const result = await askPlain.invoke({ question: 'hi' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'this MCP client cannot sample (it declares no sampling capability)',
    );
    await plain.close();
  });

  it('fills form defaults on the client and checks the answer on the server, once', async () => {
    let asked = 0;
    const { client } = await connect({
      onElicit: () => {
        asked++;
        return { action: 'accept', content: { name: 'Ana' } };
      },
    });
    const ask = (await client.tools()).find((t) => t.name === 'ask_person')!;
    expect(JSON.parse(textOf(await ask.invoke({})))).toEqual({
      action: 'accept',
      content: { name: 'Ana', age: 30 },
    });
    await client.close();

    const { client: wrong } = await connect({
      onElicit: () => {
        asked++;
        return { action: 'accept', content: { age: 'old' } as never };
      },
    });
    const askWrong = (await wrong.tools()).find((t) => t.name === 'ask_person')!;
    const result = await askWrong.invoke({});
    expect(result.isError).toBe(true);
    // The SDK checks the answer against the form first; fino checks it again before the tool sees it.
    expect(textOf(result)).toMatch(
      /does not match requested schema: .*'name'.*age must be integer/,
    );
    expect(asked).toBe(2); // asked once per call, never again in a loop
    await wrong.close();
  });

  it('refuses a form outside the flat subset before asking anyone', async () => {
    let asked = false;
    const { client } = await connect({
      onElicit: () => {
        asked = true;
        return { action: 'decline' };
      },
    });
    const bad = (await client.tools()).find((t) => t.name === 'bad_form')!;
    const result = await bad.invoke({});
    expect(textOf(result)).toContain(
      'ctx.elicit: schema.properties.address: expected a flat field',
    );
    expect(asked).toBe(false);
    await client.close();
  });
});
