import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../../src/ai/agent/event-queue.ts';
import { collect } from './helpers.ts';

describe('EventQueue', () => {
  it('delivers events pushed before and after a reader starts, to every reader', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    const early = collect(queue);
    queue.push(2);
    queue.close();
    queue.push(3);
    expect(await early).toEqual([1, 2]);
    expect(await collect(queue)).toEqual([1, 2]);
  });

  it('throws the failure after the queued events', async () => {
    const queue = new EventQueue<number>();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const n of queue) seen.push(n);
    })();
    queue.push(1);
    queue.fail(new Error('boom'));
    await expect(reading).rejects.toThrow('boom');
    expect(seen).toEqual([1]);
  });
});
