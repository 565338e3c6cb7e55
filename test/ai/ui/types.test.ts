/**
 * fino's copy of the UI message stream protocol's types stays true to `ai`'s published
 * ones: every chunk fino can send is a chunk `ai` 7 accepts (checked by the compiler when
 * the tests are type-checked, and by `ai`'s own chunk schema at run time).
 */
import type { UIMessageChunk as AiUIMessageChunk } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  FinoDataTypes,
  FinoMessageMetadata,
  UIMessageChunk,
} from '../../../src/ai/ui/index.ts';

type AiChunk = AiUIMessageChunk<FinoMessageMetadata, FinoDataTypes>;

describe('fino:ai/ui types', () => {
  it('every chunk fino sends is one of ai 7’s UIMessageChunks', () => {
    expectTypeOf<UIMessageChunk>().toExtend<AiChunk>();
    const chunk: UIMessageChunk = { type: 'data-fino-error', data: { code: 'X', message: 'm' } };
    const accepted: AiChunk = chunk;
    expect(accepted.type).toBe('data-fino-error');
  });

  it('refuses, at compile time, a chunk ai 7 does not know', () => {
    // @ts-expect-error: no such chunk in the protocol
    const unknown: UIMessageChunk = { type: 'tool-call', toolCallId: 'c1' };
    expect(unknown.type).toBe('tool-call');
  });
});
