/**
 * Agent runs over the Responses API against a fake server speaking its documented wire
 * format: reasoning items across a suspended run resumed from JSON by a fresh model,
 * OpenAI's own tools beside fino tools, and remote MCP approvals through fino's approval path.
 */
import { describe, expect, it } from 'vitest';
import { type AgentEvent, agent, type RunResult } from '../../../../src/ai/agent/index.ts';
import { openai } from '../../../../src/ai/model/index.ts';
import { type Reply, useFakeProvider } from '../../../helpers/fake-provider.ts';
import { collect, echoTool } from '../../agent/helpers.ts';
import { functionCall, message, reasoning, reply } from './responses-wire.ts';

const fake = useFakeProvider();

async function serve(replies: Reply[]) {
  return fake.serve(replies);
}

const model = (url: string) =>
  openai({ model: 'gpt-5-mini', apiKey: 'k', baseURL: url, api: 'responses' });

const webSearchCall = {
  type: 'web_search_call',
  id: 'ws_1',
  status: 'completed',
  action: {
    type: 'search',
    query: 'weather Oslo',
    sources: [{ type: 'url', url: 'https://www.yr.no/en' }],
  },
};
const listTools = {
  type: 'mcp_list_tools',
  id: 'mcpl_1',
  server_label: 'deepwiki',
  tools: [{ name: 'ask_question', input_schema: { type: 'object' } }],
};
const approvalRequest = {
  type: 'mcp_approval_request',
  id: 'mcpr_1',
  server_label: 'deepwiki',
  name: 'ask_question',
  arguments: '{"question":"What is fino?"}',
};
const mcpCall = {
  type: 'mcp_call',
  id: 'mcp_1',
  server_label: 'deepwiki',
  name: 'ask_question',
  arguments: '{"question":"What is fino?"}',
  output: 'A TypeScript library.',
  error: null,
};

async function runOf(
  bot: ReturnType<typeof agent>,
  input: string,
  stream: boolean,
): Promise<{ result: RunResult; events: AgentEvent[] }> {
  if (!stream) return { result: await bot.generate(input), events: [] };
  const running = bot.stream(input);
  const events = await collect(running);
  return { result: await running.result, events };
}

for (const stream of [false, true]) {
  describe(`agent over the Responses API (${stream ? 'streamed' : 'whole'})`, () => {
    it('sends a reasoning item back byte for byte after a suspended run is resumed from JSON by a fresh model', async () => {
      const thought = reasoning('Removing needs care.', 'gAAAAB-encrypted+/=', 'rs_42');
      const call = functionCall('call_1', 'echo', { text: 'rm' });
      const url = (
        await serve([reply([thought, call], stream), reply([message('Removed.')], false)])
      ).url;
      const first = await runOf(
        agent({ model: model(url), tools: [echoTool({ requiresApproval: true })] }),
        'Remove it',
        stream,
      );
      if (first.result.status !== 'suspended') throw new Error('expected a suspended run');
      const saved = JSON.stringify(first.result.state);

      // Another process: a fresh model and agent, the state read back from JSON.
      const echo = echoTool({ requiresApproval: true });
      const second = await agent({ model: model(url), tools: [echo] }).resume(JSON.parse(saved), {
        call_1: { approve: true },
      });
      expect(second.status === 'done' && second.text).toBe('Removed.');
      expect(echo.calls).toHaveLength(1);
      const input = fake.server.requests[1].body.input;
      expect(input.map((item: { type?: string; role?: string }) => item.type ?? item.role)).toEqual(
        ['user', 'reasoning', 'function_call', 'function_call_output'],
      );
      expect(JSON.stringify(input[1])).toBe(JSON.stringify(thought));
      expect(JSON.stringify(input[2])).toBe(JSON.stringify(call));
      expect(input[3]).toEqual({
        type: 'function_call_output',
        call_id: 'call_1',
        output: 'echo: rm',
      });
    });

    it('runs OpenAI web search beside a fino tool: its call and result in the messages and events, its item sent back', async () => {
      await serve([
        reply([webSearchCall, functionCall('call_1', 'echo', { text: 'Oslo' })], stream),
        reply([message('4 °C, per yr.no.')], stream),
      ]);
      const echo = echoTool();
      const bot = agent({ model: model(fake.server.url), tools: [echo, openai.tools.webSearch()] });
      const { result, events } = await runOf(bot, 'Weather in Oslo?', stream);
      if (result.status !== 'done') throw new Error('expected a finished run');
      expect(result.text).toBe('4 °C, per yr.no.');
      expect(fake.server.requests[0].body.tools).toEqual([
        expect.objectContaining({ type: 'function', name: 'echo' }),
        { type: 'web_search' },
      ]);
      const turn = result.messages[1].content as { type: string }[];
      expect(turn.slice(0, 2)).toEqual([
        {
          type: 'tool_use',
          id: 'ws_1',
          name: 'web_search',
          args: webSearchCall.action,
          provider: 'openai',
          providerMetadata: { openai: { item: webSearchCall } },
        },
        {
          type: 'tool_result',
          toolCallId: 'ws_1',
          content: JSON.stringify(webSearchCall.action.sources),
          provider: 'openai',
        },
      ]);
      expect(echo.calls.map((c) => c.args)).toEqual([{ text: 'Oslo' }]);
      expect(result.steps[0].toolCalls.map((c) => c.name)).toEqual(['echo']);
      expect(fake.server.requests[1].body.input.slice(1, 3)).toEqual([
        webSearchCall,
        expect.objectContaining({ type: 'function_call', call_id: 'call_1' }),
      ]);
      if (stream) {
        const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e.call.name] : []));
        expect(calls).toEqual(['web_search', 'echo']);
        const results = events.flatMap((e) => (e.type === 'tool-result' ? [e.toolName] : []));
        expect(results).toEqual(['web_search', 'echo']);
      }
    });

    it('suspends on a remote MCP approval request and answers it with mcp_approval_response', async () => {
      await serve([
        reply([listTools, approvalRequest], stream),
        reply([mcpCall, message('fino is a TypeScript library.')], false),
      ]);
      const deepwiki = openai.tools.mcp({ serverUrl: 'https://mcp.deepwiki.com/mcp' });
      const bot = agent({ model: model(fake.server.url), tools: [deepwiki] });
      const { result: first } = await runOf(bot, 'What is fino?', stream);
      if (first.status !== 'suspended') throw new Error('expected a suspended run');
      expect(first.pending).toEqual([
        expect.objectContaining({
          kind: 'approval',
          toolCallId: 'mcpr_1',
          toolName: 'mcp_deepwiki',
          args: { tool: 'ask_question', arguments: { question: 'What is fino?' } },
        }),
      ]);
      expect(fake.server.requests[0].body.tools).toEqual([
        {
          type: 'mcp',
          server_label: 'deepwiki',
          server_url: 'https://mcp.deepwiki.com/mcp',
          require_approval: 'always',
        },
      ]);
      const second = await bot.resume(JSON.parse(JSON.stringify(first.state)), {
        mcpr_1: { approve: true },
      });
      if (second.status !== 'done') throw new Error('expected a finished run');
      expect(second.text).toBe('fino is a TypeScript library.');
      expect(fake.server.requests[1].body.input.slice(1)).toEqual([
        listTools,
        approvalRequest,
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
      ]);
      expect(second.messages.at(-1)!.content).toContainEqual({
        type: 'tool_result',
        toolCallId: 'mcp_1',
        content: 'A TypeScript library.',
        provider: 'openai',
      });
    });
  });
}

describe('provider tools: the rest', () => {
  it('a rejected MCP approval goes back as approve: false with the reason', async () => {
    await serve([
      { json: replyJson([{ ...approvalRequest, server_label: 'wiki' }]) },
      { json: replyJson([message('OK, not asking.')]) },
    ]);
    const bot = agent({
      model: model(fake.server.url),
      tools: [openai.tools.mcp({ serverUrl: 'https://mcp.deepwiki.com/mcp', serverLabel: 'wiki' })],
    });
    const first = await bot.generate('What is fino?');
    if (first.status !== 'suspended') throw new Error('expected a suspended run');
    await bot.resume(first.state, { mcpr_1: { reject: 'not now' } });
    expect(fake.server.requests[1].body.input.at(-1)).toEqual({
      type: 'mcp_approval_response',
      approval_request_id: 'mcpr_1',
      approve: false,
      reason: 'Tool call "mcp_wiki" was rejected: not now',
    });
  });

  it('Chat Completions skips server-run calls and warns about provider tools', async () => {
    await serve([
      {
        json: {
          choices: [
            { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' },
          ],
        },
      },
    ]);
    const chat = openai({ model: 'llama', baseURL: fake.server.url });
    const result = await chat.generate({
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'ws_1', name: 'web_search', args: {}, provider: 'openai' },
            { type: 'tool_result', toolCallId: 'ws_1', content: '[]', provider: 'openai' },
            { type: 'text', text: 'Cold.' },
          ],
        },
        { role: 'user', content: 'Thanks' },
      ],
      providerTools: [openai.tools.webSearch()],
    });
    expect(fake.server.requests[0].body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Cold.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(fake.server.requests[0].body).not.toHaveProperty('tools');
    expect(result.warnings).toEqual([
      {
        tool: 'web_search',
        message:
          'provider tool "web_search" (openai) not sent: Chat Completions (use openai({ api: \'responses\' })) cannot run it',
      },
    ]);
  });

  it('refuses a malformed provider tool in a request before sending anything', async () => {
    await serve([]);
    const gpt = model(fake.server.url);
    await expect(
      gpt.generate({ messages: [], providerTools: [{ name: 'x' }] as never }),
    ).rejects.toThrow(
      'openai: providerTools[0]: expected a provider tool { type: "provider", provider, name, wire }, received object',
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('refuses bad provider tool options, naming what was expected', () => {
    expect(() => openai.tools.fileSearch({ vectorStoreIds: [] })).toThrow(
      'openai.tools.fileSearch.vectorStoreIds: expected a non-empty array of non-empty strings, received',
    );
    expect(() => openai.tools.mcp({ serverUrl: 'not a url' })).toThrow(
      'openai.tools.mcp.serverUrl: expected an absolute URL, received string "not a url"',
    );
    expect(() =>
      openai.tools.mcp({ serverUrl: 'https://x.dev/mcp', requireApproval: 'sometimes' as never }),
    ).toThrow(
      "openai.tools.mcp.requireApproval: expected 'always', 'never' or { never: [tool names] }",
    );
    expect(() =>
      agent({
        model: model('http://x'),
        tools: [openai.tools.webSearch(), openai.tools.webSearch()],
      }),
    ).toThrow('two tools are named "web_search"');
  });
});

function replyJson(output: Record<string, unknown>[]) {
  return (reply(output, false) as { json: unknown }).json;
}
