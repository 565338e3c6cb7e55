/**
 * toModelMessages reads UI messages as ai's own convertToModelMessages does — same roles,
 * texts, tool calls and results, reasoning kept — in fino's message shape, with the
 * reasoning's provider metadata mapped to the fields fino's providers send back.
 */
import {
  type UIMessageChunk as AiChunk,
  type UIMessage as AiUIMessage,
  convertToModelMessages,
  readUIMessageStream,
} from 'ai';
import { describe, expect, it } from 'vitest';
import type { ContentPart, ModelMessage } from '../../../src/ai/model/index.ts';
import { checkUIMessages, toModelMessages, type UIMessage } from '../../../src/ai/ui/index.ts';

/** A tool turn as a native backend streams it: reasoning, a result, an error, a denial, then text. */
const CHUNKS: AiChunk[] = [
  { type: 'start', messageId: 'run-1' },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'r0' },
  { type: 'reasoning-delta', id: 'r0', delta: 'Check the weather.' },
  { type: 'reasoning-end', id: 'r0', providerMetadata: { anthropic: { signature: 'sig' } } },
  { type: 'text-start', id: 't0' },
  { type: 'text-delta', id: 't0', delta: 'Looking.' },
  { type: 'text-end', id: 't0' },
  { type: 'tool-input-available', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } },
  { type: 'tool-output-available', toolCallId: 'c1', output: { celsius: 21 } },
  { type: 'tool-input-available', toolCallId: 'c2', toolName: 'forecast', input: {} },
  { type: 'tool-output-error', toolCallId: 'c2', errorText: 'no forecast today' },
  { type: 'tool-input-available', toolCallId: 'c3', toolName: 'refund', input: { order: 'o-1' } },
  { type: 'tool-approval-request', approvalId: 'run-1/c3', toolCallId: 'c3' },
  { type: 'tool-approval-response', approvalId: 'run-1/c3', approved: false, reason: 'not now' },
  { type: 'tool-output-denied', toolCallId: 'c3' },
  { type: 'finish-step' },
  { type: 'start-step' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'It is 21 °C.' },
  { type: 'text-end', id: 't1' },
  { type: 'finish-step' },
  { type: 'finish' },
];

async function streamedMessage(): Promise<AiUIMessage> {
  const stream = new ReadableStream<AiChunk>({
    start(controller) {
      for (const chunk of CHUNKS) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: AiUIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return JSON.parse(JSON.stringify(last));
}

type Item = unknown[];

/** ai's model messages, summarised: tool results are the user turn that follows in fino. */
function aiSummary(messages: Array<{ role: string; content: unknown }>): Array<[string, Item[]]> {
  return messages.map((m) => {
    const content =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as any[]);
    const items = content.flatMap((p): Item[] => {
      if (p.type === 'text') return [['text', p.text]];
      if (p.type === 'reasoning')
        return [['reasoning', p.text, p.providerOptions?.anthropic?.signature]];
      if (p.type === 'tool-call') return [['call', p.toolCallId, p.toolName, p.input]];
      if (p.type === 'tool-result') {
        const { type, value } = p.output;
        return [
          [
            'result',
            p.toolCallId,
            type === 'error-text',
            type === 'json' ? JSON.stringify(value) : value,
          ],
        ];
      }
      return [];
    });
    return [m.role === 'tool' ? 'user' : m.role, items];
  });
}

function finoSummary(messages: ModelMessage[]): Array<[string, Item[]]> {
  return messages.map((m) => {
    const content: ContentPart[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const items = content.flatMap((p): Item[] => {
      if (p.type === 'text') return [['text', p.text]];
      if (p.type === 'reasoning') return [['reasoning', p.text, p.signature]];
      if (p.type === 'tool_use') return [['call', p.id, p.name, p.args]];
      if (p.type === 'tool_result')
        return [['result', p.toolCallId, p.isError === true, p.content]];
      return [];
    });
    return [m.role, items];
  });
}

describe('toModelMessages', () => {
  it("reads a streamed tool turn as ai's convertToModelMessages does", async () => {
    const ui = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
      await streamedMessage(),
    ];
    const fino = toModelMessages(checkUIMessages(ui));
    const ai = await convertToModelMessages(ui as AiUIMessage[]);
    const expected = aiSummary(ai as any);
    // ai answers a denial with its reason; fino with the sentence its agent writes for one.
    expected[2][1][2] = ['result', 'c3', true, 'Tool call "refund" was rejected: not now'];
    expect(finoSummary(fino)).toEqual(expected);
    expect(fino.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(fino[1].content).toContainEqual({
      type: 'reasoning',
      text: 'Check the weather.',
      provider: 'anthropic',
      signature: 'sig',
    });
  });

  it('keeps every provider’s reasoning metadata in the fields its provider reads back', () => {
    const reasoning = (providerMetadata?: object) => ({
      type: 'reasoning',
      text: 't',
      providerMetadata,
    });
    const [turn] = toModelMessages(
      checkUIMessages([
        {
          id: 'a',
          role: 'assistant',
          parts: [
            reasoning({ anthropic: { redactedData: 'enc' } }),
            reasoning({ openai: { item: { type: 'reasoning', encrypted_content: 'x' } } }),
            reasoning({ anthropic: { signature: 's', cache: 1 }, gateway: { route: 'r' } }),
            { type: 'reasoning', text: 'plain' },
            { type: 'text', text: 'hi', providerMetadata: { openai: { item: { id: 'msg_1' } } } },
          ],
        },
      ]),
    );
    expect(turn.content).toEqual([
      { type: 'reasoning', text: 't', provider: 'anthropic', redacted: 'enc' },
      {
        type: 'reasoning',
        text: 't',
        provider: 'openai',
        providerMetadata: { openai: { item: { type: 'reasoning', encrypted_content: 'x' } } },
      },
      {
        type: 'reasoning',
        text: 't',
        provider: 'anthropic',
        signature: 's',
        providerMetadata: { anthropic: { cache: 1 }, gateway: { route: 'r' } },
      },
      { type: 'reasoning', text: 'plain' },
      { type: 'text', text: 'hi', providerMetadata: { openai: { item: { id: 'msg_1' } } } },
    ]);
  });

  it('turns files into image, audio and document parts, and names an http(s) file without fetching it', () => {
    const file = (mediaType: string, url: string, filename?: string) => ({
      type: 'file',
      mediaType,
      url,
      filename,
    });
    const [message] = toModelMessages(
      checkUIMessages([
        {
          id: 'u',
          role: 'user',
          parts: [
            file('image/png', 'data:image/png;base64,iVBORw0KGgo='),
            file('audio/wav', 'data:audio/wav;base64,UklGRg=='),
            file('application/pdf', 'data:application/pdf;base64,JVBERi0=', 'a.pdf'),
            file('text/plain', 'data:text/plain,caf%C3%A9'),
            file('image/jpeg', 'https://cdn.test/cat.jpg'),
            { type: 'data-note', data: { seen: true } },
          ],
        },
      ]),
    );
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'audio', mediaType: 'audio/wav', data: 'UklGRg==' },
        { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', name: 'a.pdf' },
        { type: 'document', mediaType: 'text/plain', data: Buffer.from('café').toString('base64') },
        { type: 'resource', uri: 'https://cdn.test/cat.jpg', mediaType: 'image/jpeg' },
      ],
    });
  });

  it('leaves out calls still waiting, and keeps the system message of a server that accepts one', () => {
    const messages: UIMessage[] = checkUIMessages(
      [
        { id: 's', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'tool-ask', toolCallId: 'c1', state: 'input-available', input: {} },
            {
              type: 'tool-pay',
              toolCallId: 'c2',
              state: 'approval-requested',
              input: {},
              approval: { id: 'r/c2' },
            },
            {
              type: 'tool-pay',
              toolCallId: 'c3',
              state: 'approval-responded',
              input: {},
              approval: { id: 'r/c3', approved: true },
            },
            {
              type: 'tool-web',
              toolCallId: 'c4',
              state: 'output-available',
              input: {},
              output: 'x',
              providerExecuted: true,
            },
            {
              type: 'tool-geo',
              toolCallId: 'c5',
              state: 'output-available',
              input: {},
              output: 'ok',
              callProviderMetadata: { google: { thoughtSignature: 'g' } },
            },
          ],
        },
      ],
      { systemMessages: true },
    );
    expect(toModelMessages(messages)).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'c5',
            name: 'geo',
            args: {},
            providerMetadata: { google: { thoughtSignature: 'g' } },
          },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c5', content: 'ok' }] },
    ]);
  });
});
