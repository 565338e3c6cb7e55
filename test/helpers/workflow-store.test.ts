import { describe, expect, it, vi } from 'vitest';
import type { WorkflowStore } from '../../src/workflow/index.ts';
import { memoryStorePerTest } from './workflow-store.ts';

const fresh = memoryStorePerTest();
const opened: Array<{ store: WorkflowStore; close: ReturnType<typeof vi.fn> }> = [];

describe('memoryStorePerTest', () => {
  it('opens a new empty store on each call', async () => {
    const a = fresh();
    const b = fresh();
    expect(a).not.toBe(b);
    expect(await a.list()).toEqual([]);
    for (const store of [a, b]) opened.push({ store, close: vi.spyOn(store, 'close') });
    expect(opened.every(({ close }) => close.mock.calls.length === 0)).toBe(true);
  });

  it('closed every store of the test before', () => {
    expect(opened).toHaveLength(2);
    for (const { close } of opened) expect(close).toHaveBeenCalledTimes(1);
  });
});
