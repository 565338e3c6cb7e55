/**
 * How many tasks one owner keeps stored: `maxStoredPerOwner`, counting the owner's stored
 * tasks that have not expired and the ones being created right now (decision 116).
 */
import { tooManyTasks } from './task-wire.ts';

/** The stored-task limit of one server. */
export class StoredTaskQuota {
  readonly #max: number;
  /** Tasks being created now, by owner (an entry lives only while one is). */
  readonly #creating = new Map<string, number>();

  constructor(maxStoredPerOwner: number) {
    this.#max = maxStoredPerOwner;
  }

  /**
   * Runs `create` for `ownerKey` when the owner may keep one more task (`stored()` counts
   * what it keeps); throws `-32600` otherwise. Concurrent creations count against the limit.
   */
  async create(
    ownerKey: string,
    stored: () => Promise<number>,
    create: () => Promise<void>,
  ): Promise<void> {
    const creating = (this.#creating.get(ownerKey) ?? 0) + 1;
    this.#creating.set(ownerKey, creating);
    try {
      if ((await stored()) + creating > this.#max) {
        throw tooManyTasks(
          `this client keeps ${this.#max} tasks, the most allowed (tasks.maxStoredPerOwner); finished tasks are deleted when their ttl ends`,
        );
      }
      await create();
    } finally {
      const left = (this.#creating.get(ownerKey) ?? 1) - 1;
      if (left === 0) this.#creating.delete(ownerKey);
      else this.#creating.set(ownerKey, left);
    }
  }
}
