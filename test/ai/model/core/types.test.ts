import { describe, expectTypeOf, it } from 'vitest';
import {
  anthropic,
  type GenerateRequest,
  type Model,
  openai,
  type ScriptedTurn,
  type StreamEvent,
  scriptedModel,
  type ToolCall,
} from '../../../../src/ai/model/index.ts';

describe('fino:ai/model types', () => {
  it('providers and the scripted model are Models', () => {
    expectTypeOf(openai({ model: 'm' })).toEqualTypeOf<Model>();
    expectTypeOf(anthropic({ model: 'm' })).toEqualTypeOf<Model>();
    expectTypeOf(scriptedModel([])).toExtend<Model>();
    expectTypeOf(scriptedModel([]).requests).toEqualTypeOf<GenerateRequest[]>();
  });

  it('scripted turns accept strings, replies, errors and functions of the request', () => {
    expectTypeOf<'hi'>().toExtend<ScriptedTurn>();
    expectTypeOf<{ toolCalls: [{ name: 'f'; args: { a: 1 } }] }>().toExtend<ScriptedTurn>();
    expectTypeOf<Error>().toExtend<ScriptedTurn>();
    expectTypeOf<(request: GenerateRequest) => Promise<string>>().toExtend<ScriptedTurn>();
    expectTypeOf<number>().not.toExtend<ScriptedTurn>();
  });

  it('stream events narrow by type', () => {
    const handle = (event: StreamEvent) => {
      if (event.type === 'tool-call-end') expectTypeOf(event.call).toEqualTypeOf<ToolCall>();
      if (event.type === 'error') expectTypeOf(event.error).toEqualTypeOf<Error>();
    };
    expectTypeOf(handle).toBeFunction();
  });
});
