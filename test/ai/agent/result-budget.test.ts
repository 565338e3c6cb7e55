import { describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../src/ai/agent/index.ts';
import type { ContentPart, GenerateRequest, ScriptedTurn } from '../../../src/ai/model/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

/** 100,000 characters that differ everywhere, so a lost or repeated chunk shows. */
const big = Array.from({ length: 100_000 }, (_, i) =>
  String.fromCharCode(97 + ((i * 7) % 26)),
).join('');

const fetchTool = (content: string | ContentPart[], maxResultChars?: number) =>
  tool({
    name: 'fetch_page',
    description: 'Fetch a page.',
    parameters: v.object({}),
    maxResultChars,
    execute: () => ({ content }),
  });

/** The text of the last tool result the model received. */
const lastResult = (request: GenerateRequest) => {
  const last = request.messages.at(-1)!;
  const part = (last.content as ContentPart[])[0];
  if (part.type !== 'tool_result' || typeof part.content !== 'string')
    throw new Error('no text result');
  return part.content;
};

const NOTICE = /\n\n\[[^\n]*\]$/;
const nextCall = (text: string) => {
  const m = /call read_result with (\{.*\})\]$/.exec(text);
  return m ? (JSON.parse(m[1]) as { id: string; offset: number }) : undefined;
};

/** A model that fetches, then follows every read_result notice, collecting the chunks. */
function pagingModel(chunks: string[], turnsBeforeStop = Infinity) {
  let turns = 0;
  const follow = (request: GenerateRequest): ScriptedTurn => {
    const text = lastResult(request);
    chunks.push(text.replace(NOTICE, ''));
    const next = nextCall(text);
    turns += 1;
    if (!next || turns > turnsBeforeStop) return 'Read it all.';
    return { toolCalls: [{ id: `read_${turns}`, name: 'read_result', args: next }] };
  };
  return scriptedModel([
    { toolCalls: [{ id: 'f1', name: 'fetch_page', args: {} }] },
    ...Array.from({ length: 20 }, () => follow),
  ]);
}

describe('maxResultChars and read_result', () => {
  it('pages a 100,000-character result through read_result and reassembles it exactly', async () => {
    const chunks: string[] = [];
    const model = pagingModel(chunks);
    const bot = agent({ model, tools: [fetchTool(big)] });
    const result = await bot.generate('Read the page');
    expect(result.status).toBe('done');
    expect(chunks).toHaveLength(5);
    expect(chunks.every((c) => c.length <= 20_000)).toBe(true);
    expect(chunks.join('')).toBe(big);
    // read_result is offered once a result was cut, not before
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['fetch_page']);
    expect(model.requests[1].tools?.map((t) => t.name)).toEqual(['fetch_page', 'read_result']);
    // the whole result is kept in the state, the conversation holds the cut one
    expect(result.state.results).toEqual([
      { id: 'f1', toolName: 'fetch_page', content: big, maxChars: 20_000, size: 100_000 },
    ]);
  });

  it('says how much was cut and gives a ready-to-use read_result call', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'f1', name: 'fetch_page', args: {} }] },
      'ok',
    ]);
    await agent({ model, tools: [fetchTool(big)], maxResultChars: 30_000 }).generate('go');
    const text = lastResult(model.requests[1]);
    expect(text.slice(0, 30_000)).toBe(big.slice(0, 30_000));
    expect(text.slice(30_000)).toBe(
      '\n\n[Result cut to fit the budget of 30000 characters: showing 0–30000 of 100000, 70000 more not shown. To read on, call read_result with {"id":"f1","offset":30000}]',
    );
  });

  it('pages on after a resume from JSON in a fresh agent (another process)', async () => {
    const firstChunks: string[] = [];
    let saved = '';
    const model = scriptedModel([
      { toolCalls: [{ id: 'f1', name: 'fetch_page', args: {} }] },
      (request): ScriptedTurn => {
        firstChunks.push(lastResult(request).replace(NOTICE, ''));
        return {
          toolCalls: [{ id: 'r1', name: 'read_result', args: nextCall(lastResult(request))! }],
        };
      },
      (request): ScriptedTurn => {
        firstChunks.push(lastResult(request).replace(NOTICE, ''));
        return new Error('the process died');
      },
    ]);
    await expect(
      agent({ model, tools: [fetchTool(big)] }).generate('Read the page', {
        onCheckpoint: (state) => {
          saved = JSON.stringify(state);
        },
      }),
    ).rejects.toThrow('the process died');
    expect(firstChunks.join('')).toBe(big.slice(0, 40_000));

    // the fresh model sees the second chunk again first (it was the last result saved)
    const restChunks: string[] = [];
    const follow = (request: GenerateRequest, turn: number): ScriptedTurn => {
      const text = lastResult(request);
      if (turn > 0) restChunks.push(text.replace(NOTICE, ''));
      const next = nextCall(text);
      return next
        ? { toolCalls: [{ id: `r${next.offset}`, name: 'read_result', args: next }] }
        : 'Done.';
    };
    const fresh = agent({
      model: scriptedModel(Array.from({ length: 5 }, () => follow)),
      tools: [fetchTool('not called again')],
    });
    const resumed = await fresh.resume(JSON.parse(saved) as RunState);
    expect(resumed.status).toBe('done');
    expect(firstChunks.join('') + restChunks.join('')).toBe(big);
  });

  it('lets a tool budget win over the agent budget, and Infinity turns cutting off', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'a', name: 'small', args: {} },
          { id: 'b', name: 'whole', args: {} },
        ],
      },
      'ok',
    ]);
    const small = tool({
      name: 'small',
      parameters: v.object({}),
      maxResultChars: 10,
      execute: () => 'x'.repeat(50),
    });
    const whole = tool({
      name: 'whole',
      parameters: v.object({}),
      maxResultChars: Infinity,
      execute: () => 'y'.repeat(50),
    });
    const result = await agent({ model, tools: [small, whole], maxResultChars: 20 }).generate('go');
    const [a, b] = result.state.steps[0].toolResults;
    expect(a.content).toMatch(/^x{10}\n\n\[Result cut/);
    expect(b.content).toBe('y'.repeat(50));
  });

  it('counts media by their base64 size and keeps them whole', async () => {
    const image: ContentPart = { type: 'image', mediaType: 'image/png', data: 'A'.repeat(300) };
    const content: ContentPart[] = [{ type: 'text', text: 't'.repeat(150) }, image];
    const model = scriptedModel([
      { toolCalls: [{ id: 'p', name: 'fetch_page', args: {} }] },
      { toolCalls: [{ id: 'r', name: 'read_result', args: { id: 'p', offset: 150 } }] },
      'ok',
    ]);
    const result = await agent({
      model,
      tools: [fetchTool(content)],
      maxResultChars: 400,
    }).generate('go');
    const [first] = result.state.steps[0].toolResults;
    // 150 + 300 > 400: the text fits, the image would not, so it waits for the next page
    expect(first.content).toEqual([
      { type: 'text', text: 't'.repeat(150) },
      {
        type: 'text',
        text: '\n\n[Result cut to fit the budget of 400 characters: showing 0–150 of 450, 300 more not shown. To read on, call read_result with {"id":"p","offset":150}]',
      },
    ]);
    const [second] = result.state.steps[1].toolResults;
    expect(second.content).toEqual([
      image,
      { type: 'text', text: '\n\n[End of result "p": showing 150–450 of 450.]' },
    ]);
  });

  it('replaces a medium larger than the whole budget by a placeholder and pages past it', async () => {
    const image: ContentPart = { type: 'image', mediaType: 'image/png', data: 'A'.repeat(1000) };
    const model = scriptedModel([{ toolCalls: [{ id: 'p', name: 'fetch_page', args: {} }] }, 'ok']);
    const result = await agent({
      model,
      tools: [fetchTool([image, { type: 'text', text: 'after' }])],
      maxResultChars: 100,
    }).generate('go');
    const [cut] = result.state.steps[0].toolResults;
    expect(cut.content).toEqual([
      {
        type: 'text',
        text: '[image/png omitted: 1000 characters exceed the result budget of 100]',
      },
      {
        type: 'text',
        text: '\n\n[Result cut to fit the budget of 100 characters: showing 0–1000 of 1005, 5 more not shown. To read on, call read_result with {"id":"p","offset":1000}]',
      },
    ]);
  });

  it('never splits a surrogate pair', async () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
    const chunks: string[] = [];
    const model = pagingModel(chunks);
    await agent({ model, tools: [fetchTool(text)], maxResultChars: 10 }).generate('go');
    expect(chunks.join('')).toBe(text);
    expect(chunks[0]).toBe('a'.repeat(9));
    expect(chunks.every((c) => !/[\uD800-\uDBFF]$/.test(c))).toBe(true);
  });

  it('refuses a bad budget and a tool named read_result', () => {
    const model = scriptedModel([]);
    expect(() => agent({ model, maxResultChars: 0 })).toThrow(
      'agent(options).maxResultChars: expected a positive integer or Infinity, received number 0',
    );
    expect(() => fetchTool('x', 1.5)).toThrow(
      'Tool "fetch_page": maxResultChars: expected a positive integer or Infinity, received number 1.5',
    );
    const clash = tool({ name: 'read_result', parameters: v.object({}), execute: () => '' });
    expect(() => agent({ model, tools: [clash] })).toThrow(/"read_result" is reserved/);
  });
});

describe('unknown agent options', () => {
  it('are refused with the name, the closest known name and the known options', () => {
    const model = scriptedModel([]);
    expect(() =>
      agent({ model, maxResultChar: 10 } as unknown as Parameters<typeof agent>[0]),
    ).toThrow(
      /^agent\(options\): unknown option "maxResultChar"; did you mean "maxResultChars"\? expected one of model, instructions, .*maxResultChars/,
    );
  });
});
