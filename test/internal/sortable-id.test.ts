import { afterEach, describe, expect, it, vi } from 'vitest';
import { sortableId } from '../../src/internal/sortable-id.ts';

describe('sortableId', () => {
  afterEach(() => vi.useRealTimers());

  it('sorts in creation order within one millisecond', () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const ids = Array.from({ length: 1000 }, () => sortableId('task_'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^task_[0-9a-f]{32}$/);
  });

  it('never goes backwards when the clock does', () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const before = sortableId('run_');
    vi.setSystemTime(1_700_000_000_000);
    const after = sortableId('run_');
    expect(after > before).toBe(true);
  });

  it('sorts across milliseconds', () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const first = sortableId('x');
    vi.advanceTimersByTime(1);
    expect(sortableId('x') > first).toBe(true);
  });
});
