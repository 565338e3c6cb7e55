/**
 * The Responses API wire format, as OpenAI documents it (the `Response` object and its
 * typed stream events), for replay servers: whole responses and the SSE streams that
 * build the same output item by item.
 */
import type OpenAI from 'openai';
import type { Reply } from '../../../helpers/fake-provider.ts';
import { sseEvent } from '../../../helpers/fake-provider.ts';

type Item = Record<string, any>;

export const usage = {
  input_tokens: 20,
  input_tokens_details: { cached_tokens: 8, cache_write_tokens: 0 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 5 },
  total_tokens: 32,
} satisfies OpenAI.Responses.ResponseUsage;

export const message = (text: string, id = 'msg_1'): Item => ({
  type: 'message',
  id,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

export const refusal = (text: string, id = 'msg_1'): Item => ({
  type: 'message',
  id,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'refusal', refusal: text }],
});

export const functionCall = (callId: string, name: string, args: unknown, id = `fc_${callId}`) => ({
  type: 'function_call',
  id,
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});

export const reasoning = (summary: string, encrypted: string, id = 'rs_1'): Item => ({
  type: 'reasoning',
  id,
  summary: summary ? [{ type: 'summary_text', text: summary }] : [],
  encrypted_content: encrypted,
});

/** A `Response` object with these output items. */
export function response(
  output: Item[],
  extra: { status?: string; incomplete_details?: unknown; error?: unknown } = {},
): Item {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    model: 'gpt-test',
    status: extra.status ?? 'completed',
    error: extra.error ?? null,
    incomplete_details: extra.incomplete_details ?? null,
    output,
    usage,
  };
}

/** The stream that builds `output` item by item (text and arguments in two deltas each). */
export function streamEvents(output: Item[], final = response(output)): string[] {
  let sequence = 0;
  const e = (value: Item) => sseEvent({ type: value.type, ...value, sequence_number: sequence++ });
  const halves = (text: string) => [
    text.slice(0, Math.floor(text.length / 2)),
    text.slice(Math.floor(text.length / 2)),
  ];
  const events = [
    e({ type: 'response.created', response: { ...final, status: 'in_progress', output: [] } }),
  ];
  output.forEach((item, output_index) => {
    const id = item.id;
    if (item.type === 'message') {
      events.push(
        e({
          type: 'response.output_item.added',
          output_index,
          item: { ...item, status: 'in_progress', content: [] },
        }),
      );
      item.content.forEach((part: Item, content_index: number) => {
        const text = part.type === 'refusal' ? part.refusal : part.text;
        const type =
          part.type === 'refusal' ? 'response.refusal.delta' : 'response.output_text.delta';
        for (const delta of halves(text)) {
          events.push(e({ type, item_id: id, output_index, content_index, delta }));
        }
      });
    } else if (item.type === 'function_call') {
      events.push(
        e({
          type: 'response.output_item.added',
          output_index,
          item: { ...item, arguments: '', status: 'in_progress' },
        }),
      );
      for (const delta of halves(item.arguments)) {
        events.push(
          e({ type: 'response.function_call_arguments.delta', item_id: id, output_index, delta }),
        );
      }
    } else if (item.type === 'reasoning') {
      events.push(
        e({
          type: 'response.output_item.added',
          output_index,
          item: { type: 'reasoning', id, summary: [] },
        }),
      );
      item.summary.forEach((part: Item, summary_index: number) => {
        events.push(
          e({
            type: 'response.reasoning_summary_part.added',
            item_id: id,
            output_index,
            summary_index,
            part: { type: 'summary_text', text: '' },
          }),
        );
        for (const delta of halves(part.text)) {
          events.push(
            e({
              type: 'response.reasoning_summary_text.delta',
              item_id: id,
              output_index,
              summary_index,
              delta,
            }),
          );
        }
      });
    } else {
      events.push(e({ type: 'response.output_item.added', output_index, item }));
    }
    events.push(e({ type: 'response.output_item.done', output_index, item }));
  });
  const type = final.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  events.push(e({ type, response: final }));
  return events;
}

/** A reply with this output, whole or streamed. */
export function reply(output: Item[], stream: boolean, final = response(output)): Reply {
  return stream ? { sse: streamEvents(output, final) } : { json: final };
}
