/**
 * A fresh memory workflow store for each test that asks for one, closed after that test
 * (`afterEach`): the set-up every workflow test on the memory store shares.
 *
 * @example
 * ```ts
 * const freshStore = memoryStorePerTest(); // at the top of a test file
 *
 * it('runs a step once', async () => {
 *   const store = freshStore();
 *   const w = worker({ store, workflows: [flow] });
 *   // …
 * });
 * ```
 */
import { afterEach } from 'vitest';
import { memoryWorkflowStore, type WorkflowStore } from '../../src/workflow/index.ts';

/** Registers the closing; each call of the returned function opens a new memory store. */
export function memoryStorePerTest(): () => WorkflowStore {
  const open: WorkflowStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  return () => {
    const store = memoryWorkflowStore();
    open.push(store);
    return store;
  };
}
