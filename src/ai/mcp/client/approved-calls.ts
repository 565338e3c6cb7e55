/**
 * The calls to remote tools that their caller approved and that are still in flight on
 * one connection: the client answers a fino server's approval elicitation for exactly
 * such a call (same tool, same arguments) with "approve", instead of asking twice.
 * See docs/decisions/051.
 */
import { canonicalJson } from '../../../internal/canonical-json.ts';

/** In-flight approved calls, counted by tool name and canonical arguments. */
export class ApprovedCalls {
  readonly #inFlight = new Map<string, number>();

  /** Records one approved call until the returned function is called (once, when it settles). */
  begin(tool: string, args: unknown): () => void {
    const key = callKey(tool, args);
    this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(key, left);
      else this.#inFlight.delete(key);
    };
  }

  /** Whether an approved call of `tool` with exactly `args` is in flight. */
  has(tool: string, args: unknown): boolean {
    return this.#inFlight.has(callKey(tool, args));
  }
}

/** Missing arguments count as `null`: a client may send either for a tool without parameters. */
const callKey = (tool: string, args: unknown) =>
  `${JSON.stringify(tool)}:${canonicalJson(args) ?? 'null'}`;
