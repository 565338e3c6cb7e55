import type { GenerateResult, StreamEvent, ToolCall } from './types.ts';

/** The stream events that replay a finished result: its parts in order, usage, then stop. */
export function* resultEvents(result: GenerateResult): Generator<StreamEvent> {
  const parts = typeof result.message.content === 'string' ? [] : result.message.content;
  if (typeof result.message.content === 'string' && result.message.content) {
    yield { type: 'text-delta', text: result.message.content };
  }
  let index = 0;
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text) yield { type: 'text-delta', text: part.text };
    } else if (part.type === 'reasoning') {
      if (part.text) yield { type: 'reasoning-delta', text: part.text };
    } else if (part.type === 'tool_use') {
      const call: ToolCall = result.toolCalls.find((c) => c.id === part.id) ?? {
        id: part.id,
        name: part.name,
        args: part.args,
      };
      yield { type: 'tool-call-start', id: call.id, name: call.name, index };
      const argsText = call.argsError ? String(call.args) : (JSON.stringify(call.args) ?? '');
      yield { type: 'tool-call-delta', id: call.id, argsText, index };
      yield { type: 'tool-call-end', call, index };
      index += 1;
    }
  }
  yield { type: 'usage', usage: result.usage };
  yield { type: 'stop', result };
}
