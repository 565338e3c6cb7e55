import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredProgress } from '../../src/ai/session/types.ts';
import { throttledWriter } from '../../src/internal/throttled-writer.ts';

const update = (progress: number): StoredProgress => ({
  toolCallId: 'c1',
  toolName: 'copy',
  progress,
  total: 100,
  at: progress,
});

describe('throttledWriter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first update at once, then at most one per interval, the last one winning', async () => {
    const written: number[] = [];
    const writer = throttledWriter(async (p: StoredProgress) => {
      written.push(p.progress);
    }, 1000);
    writer.report(update(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1]);
    for (let i = 2; i <= 200; i++) writer.report(update(i));
    await vi.advanceTimersByTimeAsync(999);
    expect(written).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([1, 200]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toEqual([1, 200]); // nothing new, nothing written
    writer.report(update(201)); // the interval has passed: written at once
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1, 200, 201]);
  });

  it('keeps one write in flight, and writes the update that came meanwhile after it', async () => {
    const written: number[] = [];
    let release: () => void = () => {};
    const writer = throttledWriter(async (p: StoredProgress) => {
      written.push(p.progress);
      if (p.progress === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 1000);
    writer.report(update(1));
    writer.report(update(2));
    await vi.advanceTimersByTimeAsync(3000);
    expect(written).toEqual([1]); // the first write has not returned yet
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual([1, 2]);
  });

  it('drops a failed write and goes on; after stop it writes nothing more', async () => {
    const written: number[] = [];
    const writer = throttledWriter(async (p: StoredProgress) => {
      written.push(p.progress);
      if (p.progress === 1) throw new Error('database down');
    }, 1000);
    writer.report(update(1));
    writer.report(update(2));
    await vi.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([1, 2]);
    writer.report(update(3));
    writer.stop();
    writer.report(update(4));
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toEqual([1, 2]);
  });

  it('flush writes the value held back at once, after the write in flight, and resolves when stored', async () => {
    const written: number[] = [];
    let release: () => void = () => {};
    const writer = throttledWriter(async (p: StoredProgress) => {
      if (p.progress === 1) await new Promise<void>((resolve) => (release = resolve));
      written.push(p.progress);
    }, 1000);
    writer.report(update(1));
    writer.report(update(2));
    writer.report(update(3));
    let flushed = false;
    const flushing = writer.flush().then(() => {
      flushed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toBe(false); // the first write is still in flight
    release();
    await flushing;
    expect(written).toEqual([1, 3]); // no interval waited: the latest is written before flush resolves
    await writer.flush(); // nothing held back: resolves at once
    expect(written).toEqual([1, 3]);
  });
});
