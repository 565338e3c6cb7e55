import { describe, expect, it } from 'vitest';
import { TaskSlots } from '../../../../../src/ai/mcp/server/tasks/task-slots.ts';

describe('TaskSlots', () => {
  it('runs up to the limits, queues the rest, and starts an owner under its limit first', () => {
    const slots = new TaskSlots({ maxRunning: 2, maxRunningPerOwner: 1, maxQueued: 10 });
    const started: string[] = [];
    const start = (name: string) => () => started.push(name);
    expect(slots.acquire('ana', start('ana 1'))).toBeUndefined();
    expect(slots.acquire('ana', start('ana 2'))).toBeDefined(); // ana is at her limit
    expect(slots.acquire('bob', start('bob 1'))).toBeDefined(); // queued behind ana 2, but…
    expect(started).toEqual(['ana 1', 'bob 1']); // …bob is under his limit: he starts
    expect(slots.acquire('cy', start('cy 1'))).toBeDefined(); // the server is full
    expect(slots.queued).toBe(2);
    slots.release('ana');
    expect(started).toEqual(['ana 1', 'bob 1', 'ana 2']); // the oldest that may run
    slots.release('bob');
    expect(started).toEqual(['ana 1', 'bob 1', 'ana 2', 'cy 1']);
    expect(slots.queued).toBe(0);
  });

  it('takes a withdrawn task out of the queue, and says when the queue is full', () => {
    const slots = new TaskSlots({ maxRunning: 1, maxRunningPerOwner: 1, maxQueued: 1 });
    const started: string[] = [];
    slots.acquire('ana', () => started.push('first'));
    const waiting = slots.acquire('ana', () => started.push('withdrawn'));
    expect(slots.full).toBe(true);
    waiting?.withdraw();
    expect(slots.full).toBe(false);
    slots.release('ana');
    expect(started).toEqual(['first']);
  });
});
