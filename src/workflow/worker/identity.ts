/**
 * A worker's identity (decision 239): with `identity`, the worker's lease owner is
 * `<identity>/<random>`, and starting it takes the identity in the store — refused with
 * `IDENTITY_IN_USE` while another live process holds it, and releasing the runs an
 * earlier process of that identity left leased, so they are driven again at once. A hold
 * lost to an outage (PostgreSQL) is taken again; if another process took it meanwhile,
 * the worker hears `IDENTITY_IN_USE` and stops.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { WorkflowError } from '../errors.ts';
import type { WorkflowStore } from '../types.ts';

/** The longest identity accepted, in characters. */
export const MAX_IDENTITY_LENGTH = 200;

/** Waits between attempts to take a lost identity again: from the first, doubling to the longest. */
const RETAKE = { firstDelayMs: 100, maxDelayMs: 5_000 };

/** Checks `worker({ identity })`: a non-empty string of at most 200 characters without `/`. */
export function checkIdentity(identity: unknown): string | undefined {
  if (identity === undefined) return undefined;
  if (
    typeof identity !== 'string' ||
    identity === '' ||
    identity.length > MAX_IDENTITY_LENGTH ||
    identity.includes('/')
  ) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `worker: identity: expected a non-empty string of at most ${MAX_IDENTITY_LENGTH} characters without "/", received ${typeof identity === 'string' ? JSON.stringify(identity.slice(0, 60)) : typeof identity}`,
    );
  }
  return identity;
}

/** The lease owner a worker writes: `<identity>/<random>`, else host, pid and a random suffix. */
export function workerOwner(identity: string | undefined): string {
  const suffix = randomBytes(4).toString('hex');
  return identity === undefined
    ? `${hostname()}:${process.pid}:${suffix}`
    : `${identity}/${hostname()}:${process.pid}:${suffix}`;
}

/**
 * Takes `identity` for `owner` (throws `IDENTITY_IN_USE`); keeps it, taking it again after
 * a loss, until `release()`; `onRefused` hears when another process took it meanwhile.
 */
export async function holdIdentity(
  store: WorkflowStore,
  identity: string,
  owner: string,
  onRefused: (error: WorkflowError) => void,
): Promise<{ release(): Promise<void> }> {
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = RETAKE.firstDelayMs;
  const retake = () => {
    timer = setTimeout(async () => {
      if (released) return;
      try {
        hold = await store.claimIdentity(identity, owner, retake);
        delay = RETAKE.firstDelayMs;
        if (released) await hold.release();
      } catch (error) {
        if (error instanceof WorkflowError && error.code === 'IDENTITY_IN_USE') onRefused(error);
        else retake();
      }
    }, delay);
    delay = Math.min(delay * 2, RETAKE.maxDelayMs);
  };
  let hold = await store.claimIdentity(identity, owner, retake);
  return {
    async release() {
      released = true;
      clearTimeout(timer);
      await hold.release();
    },
  };
}
