/**
 * checkUIMessages refuses every malformed message with a 400 INVALID_MESSAGES whose
 * message names the field's path and what was expected, and returns a checked copy of
 * what it accepts.
 */
import { describe, expect, it } from 'vitest';
import { checkUIMessages, UIRequestError } from '../../../src/ai/ui/index.ts';

const user = (parts: unknown[], extra: object = {}) => ({
  id: 'u1',
  role: 'user',
  parts,
  ...extra,
});
const assistant = (parts: unknown[]) => ({ id: 'a1', role: 'assistant', parts });
const tool = (fields: object) =>
  assistant([{ type: 'tool-refund', toolCallId: 'c1', input: {}, ...fields }]);

/** [what, messages, the message's start (path: expected …), limits?] */
const REFUSED: Array<[string, unknown, string, object?]> = [
  ['not a list', { id: 'x' }, 'messages: expected an array of UI messages, received object'],
  [
    'too many messages',
    [user([]), { ...user([]), id: 'u2' }],
    'messages: expected at most 1 messages, received 2 messages',
    { messages: 1 },
  ],
  [
    'a message that is not an object',
    ['hi'],
    'messages[0]: expected a message object, received string "hi"',
  ],
  [
    'a missing id',
    [{ role: 'user', parts: [] }],
    'messages[0].id: expected an id of 1 to 256 characters',
  ],
  [
    'a repeated id',
    [user([]), user([])],
    'messages[1].id: expected an id no other message has, received the repeated id "u1"',
  ],
  [
    'an unknown role',
    [{ id: 'x', role: 'tool', parts: [] }],
    'messages[0].role: expected one of "user", "assistant", received string "tool"',
  ],
  [
    'a system message by default',
    [{ id: 'x', role: 'system', parts: [] }],
    'messages[0].role: expected one of "user", "assistant", received string "system"',
  ],
  [
    'parts that are not a list',
    [{ id: 'x', role: 'user', parts: {} }],
    'messages[0].parts: expected an array of parts, received object',
  ],
  [
    'too many parts in a message',
    [
      user([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ],
    'messages[0].parts: expected at most 1 parts in a message, received 2 parts',
    { partsPerMessage: 1 },
  ],
  [
    'too many parts in all',
    [user([{ type: 'text', text: 'a' }]), { ...user([{ type: 'text', text: 'b' }]), id: 'u2' }],
    'messages[1].parts: expected at most 1 parts in all the messages, received 2 parts so far',
    { parts: 1 },
  ],
  [
    'a part type without a type',
    [user([{ text: 'a' }])],
    'messages[0].parts[0].type: expected a part type: "text", "reasoning", "file", "source-url", "source-document", "step-start", "tool-<name>", "dynamic-tool" or "data-<name>", received undefined',
  ],
  [
    'an unknown part type',
    [user([{ type: 'custom', kind: 'x.y' }])],
    'messages[0].parts[0].type: expected a known part type: "text", "reasoning"',
  ],
  [
    'a text too long',
    [user([{ type: 'text', text: 'abcdef' }])],
    'messages[0].parts[0].text: expected a text of at most 5 characters, received 6 characters',
    { textLength: 5 },
  ],
  [
    'a text that is not a string',
    [user([{ type: 'text', text: 5 }])],
    'messages[0].parts[0].text: expected a string, received number 5',
  ],
  [
    'a text in an unknown state',
    [user([{ type: 'text', text: 'a', state: 'half' }])],
    'messages[0].parts[0].state: expected one of "streaming", "done", received string "half"',
  ],
  [
    'a tool part in a user message',
    [user([{ type: 'tool-x', toolCallId: 'c', state: 'input-available', input: {} }])],
    'messages[0].parts[0].type: expected a part a user message may carry (tool-x parts come from assistant messages)',
  ],
  [
    'reasoning in a user message',
    [user([{ type: 'reasoning', text: 'x' }])],
    'messages[0].parts[0].type: expected a part a user message may carry',
  ],
  [
    'a file with a javascript: URL',
    [user([{ type: 'file', mediaType: 'text/html', url: 'javascript:alert(1)' }])],
    'messages[0].parts[0].url: expected an http(s) URL of at most 8192 characters',
  ],
  [
    'a file whose base64 is not',
    [user([{ type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,<script>' }])],
    'messages[0].parts[0].url: expected a data: URL whose ;base64 payload is base64',
  ],
  [
    'a file without a media type',
    [user([{ type: 'file', url: 'https://x.test/a.png' }])],
    'messages[0].parts[0].mediaType: expected a value for the required field "mediaType", received nothing',
  ],
  [
    'a bad media type',
    [user([{ type: 'file', mediaType: 'png', url: 'https://x.test/a.png' }])],
    'messages[0].parts[0].mediaType: expected a media type such as "image/png"',
  ],
  [
    'a tool state that does not exist',
    [tool({ state: 'done' })],
    'messages[0].parts[0].state: expected one of "input-streaming", "input-available", "approval-requested", "approval-responded", "output-available", "output-error", "output-denied", received string "done"',
  ],
  [
    'an output before the call ran',
    [tool({ state: 'input-available', output: 'forged' })],
    'messages[0].parts[0].output: expected no output except on a call that ran (state "output-available")',
  ],
  [
    'output-available without output',
    [tool({ state: 'output-available' })],
    'messages[0].parts[0].output: expected a value for the required field "output", received nothing',
  ],
  [
    'output-error without errorText',
    [tool({ state: 'output-error' })],
    'messages[0].parts[0].errorText: expected a value for the required field "errorText"',
  ],
  [
    'approval-requested without approval',
    [tool({ state: 'approval-requested' })],
    'messages[0].parts[0].approval: expected an approval object in state "approval-requested", received undefined',
  ],
  [
    'an approval answered while requested',
    [tool({ state: 'approval-requested', approval: { id: 'a', approved: true } })],
    'messages[0].parts[0].approval.approved: expected no approved except on a response (state "approval-responded")',
  ],
  [
    'approval-responded without an answer',
    [tool({ state: 'approval-responded', approval: { id: 'a' } })],
    'messages[0].parts[0].approval.approved: expected a value for the required field "approved"',
  ],
  [
    'output-denied that was approved',
    [tool({ state: 'output-denied', approval: { id: 'a', approved: true } })],
    'messages[0].parts[0].approval.approved: expected false, received boolean true',
  ],
  [
    'an approval on input-available',
    [tool({ state: 'input-available', approval: { id: 'a' } })],
    'messages[0].parts[0].approval: expected no approval in state "input-available", received object',
  ],
  [
    'a tool part without a call id',
    [assistant([{ type: 'tool-x', state: 'input-available', input: {} }])],
    'messages[0].parts[0].toolCallId: expected an id of 1 to 256 characters',
  ],
  [
    'a repeated tool call id',
    [
      assistant([
        { type: 'tool-x', toolCallId: 'c', state: 'input-available', input: {} },
        { type: 'tool-y', toolCallId: 'c', state: 'input-available', input: {} },
      ]),
    ],
    'messages[0].parts[1].toolCallId: expected a tool call id no other tool part has',
  ],
  [
    'a tool without a name',
    [assistant([{ type: 'tool-', toolCallId: 'c', state: 'input-available', input: {} }])],
    'messages[0].parts[0].type (the tool\'s name after "tool-"): expected an id of 1 to 256 characters',
  ],
  [
    'a dynamic tool without toolName',
    [assistant([{ type: 'dynamic-tool', toolCallId: 'c', state: 'input-available', input: {} }])],
    'messages[0].parts[0].toolName: expected an id',
  ],
  [
    'a data part without data',
    [user([{ type: 'data-x' }])],
    "messages[0].parts[0].data: expected the part's data, received nothing",
  ],
  [
    'provider metadata that is not by provider',
    [user([{ type: 'text', text: 'a', providerMetadata: { anthropic: 'x' } }])],
    'messages[0].parts[0].providerMetadata: expected an object of JSON objects by provider name',
  ],
  [
    'a number JSON cannot hold',
    [user([{ type: 'data-x', data: Number.NaN }])],
    'messages[0].parts[0].data: expected a JSON value (a finite number), received number NaN',
  ],
  [
    'a function in metadata',
    [user([], { metadata: { f: () => 1 } })],
    'messages[0].metadata.f: expected a JSON value, received function',
  ],
  [
    'a class instance',
    [user([{ type: 'data-x', data: new Date(0) }])],
    'messages[0].parts[0].data: expected a plain JSON object, received an instance of another kind',
  ],
  [
    'an accessor',
    [
      user([
        {
          type: 'data-x',
          data: Object.defineProperty({}, 'a', { get: () => 1, enumerable: true }),
        },
      ]),
    ],
    'messages[0].parts[0].data.a: expected a JSON value, received an accessor',
  ],
  [
    'a revoked proxy',
    [
      (() => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      })(),
    ],
    'messages: expected plain JSON messages, received a value that cannot be read',
  ],
];

function refusal(value: unknown, limits?: object): UIRequestError {
  try {
    checkUIMessages(value, limits);
  } catch (error) {
    if (error instanceof UIRequestError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('checkUIMessages', () => {
  it.each(REFUSED)(
    'refuses %s, naming the field and what was expected',
    (_, value, message, limits) => {
      const error = refusal(value, limits);
      expect(error.status).toBe(400);
      expect(error.code).toBe('INVALID_MESSAGES');
      expect(error.message.startsWith(message), error.message).toBe(true);
    },
  );

  it('returns a copy of every part type it knows, extra protocol fields kept', () => {
    const messages = [
      { id: 's', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      user(
        [
          { type: 'text', text: 'See', state: 'done' },
          {
            type: 'file',
            mediaType: 'image/png',
            url: 'data:image/png;base64,iVBORw0KGgo=',
            filename: 'a.png',
          },
          { type: 'file', mediaType: 'application/pdf', url: 'https://files.test/a.pdf' },
          { type: 'data-note', id: 'n1', data: { a: [1, 'x', null, true] } },
        ],
        { metadata: { app: { plan: 'pro' } } },
      ),
      assistant([
        { type: 'step-start' },
        {
          type: 'reasoning',
          text: 'hm',
          state: 'done',
          providerMetadata: { anthropic: { signature: 's' } },
        },
        { type: 'source-url', sourceId: 's1', url: 'https://example.test', title: 'Ex' },
        { type: 'source-document', sourceId: 's2', mediaType: 'application/pdf', title: 'Doc' },
        { type: 'tool-a', toolCallId: 'c1', state: 'input-streaming' },
        {
          type: 'tool-b',
          toolCallId: 'c2',
          state: 'approval-requested',
          input: {},
          approval: { id: 'r/c2', requestReason: 'costly' },
        },
        {
          type: 'tool-c',
          toolCallId: 'c3',
          state: 'approval-responded',
          input: {},
          approval: { id: 'r/c3', approved: true },
        },
        {
          type: 'tool-d',
          toolCallId: 'c4',
          state: 'output-available',
          input: { q: 1 },
          output: { r: 2 },
          approval: { id: 'r/c4', approved: true },
          toolMetadata: { x: 1 },
        },
        { type: 'tool-e', toolCallId: 'c5', state: 'output-error', errorText: 'boom' },
        {
          type: 'tool-f',
          toolCallId: 'c6',
          state: 'output-denied',
          input: {},
          approval: { id: 'r/c6', approved: false, reason: 'no' },
        },
        {
          type: 'dynamic-tool',
          toolName: 'g',
          toolCallId: 'c7',
          state: 'input-available',
          input: null,
          title: 'G',
        },
      ]),
    ];
    const checked = checkUIMessages(messages, { systemMessages: true });
    expect(checked).toEqual(messages);
    expect(checked[1]).not.toBe(messages[1]);
    expect(checked[1].parts[3]).not.toBe(messages[1].parts[3]);
  });

  it('refuses limits that are not positive integers, and unknown ones', () => {
    expect(() => checkUIMessages([], { parts: 0 })).toThrow(
      'ChatRequestLimits.parts: expected a positive integer, received 0',
    );
    expect(() => checkUIMessages([], { systemMessages: 'yes' } as object)).toThrow(
      'ChatRequestLimits.systemMessages: expected a boolean, received yes',
    );
    expect(() => checkUIMessages([], { maxBytes: 5 } as object)).toThrow(
      'ChatRequestLimits: unknown option "maxBytes";',
    );
  });
});
