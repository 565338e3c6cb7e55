/**
 * Which step or tool call the running code belongs to: the functions a step or `ctx.call`
 * runs are marked, so an operation that must come from the run's own code — numbered by
 * the order the code reaches it, which a completed step's function never reaches again —
 * can refuse to run from inside them (`ctx.writeStream`, decision 227).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` (a step's function, a tool call) marked as the effect `where`, e.g. `step "charge"`. */
export const runAsEffect = <T>(where: string, fn: () => T): T => scope.run(where, fn);

/** The effect the calling code runs inside, if any (`step "charge"`). */
export const runningEffect = (): string | undefined => scope.getStore();
