import { type AnswerSize, isRecord } from '../core/index.ts';
import type { Block } from './paused-turn.ts';

/**
 * The content blocks of a streamed response rebuilt as the API would have sent them whole:
 * each `content_block_start` block with its text, thinking, signature and input JSON deltas
 * applied. Only a paused turn needs them (to send it back as received). A block's start is
 * counted in the call's {@link AnswerSize} (a server tool's result arrives whole there);
 * its deltas are the turn builder's, counted there.
 */
export class StreamedBlocks {
  private readonly blocks = new Map<number, Block>();
  private readonly inputs = new Map<number, string>();

  constructor(private readonly size: AnswerSize) {}

  apply(event: Record<string, unknown>): void {
    const index = Number(event.index);
    if (event.type === 'content_block_start' && isRecord(event.content_block)) {
      this.size.addValue('content block', event.content_block);
      this.blocks.set(index, { ...event.content_block });
      return;
    }
    const block = this.blocks.get(index);
    if (event.type !== 'content_block_delta' || !block || !isRecord(event.delta)) return;
    const { delta } = event;
    const append = (field: string, value: unknown) => {
      if (typeof value === 'string') block[field] = String(block[field] ?? '') + value;
    };
    if (delta.type === 'text_delta') append('text', delta.text);
    else if (delta.type === 'thinking_delta') append('thinking', delta.thinking);
    else if (delta.type === 'signature_delta') append('signature', delta.signature);
    else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      this.inputs.set(index, (this.inputs.get(index) ?? '') + delta.partial_json);
    }
  }

  /** The blocks in index order, streamed input JSON parsed (left as sent when malformed). */
  done(): Block[] {
    return [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, block]) => {
        const json = this.inputs.get(index);
        if (json === undefined) return block;
        try {
          return { ...block, input: JSON.parse(json) };
        } catch {
          return block;
        }
      });
  }
}
