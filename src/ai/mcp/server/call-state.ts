/**
 * The state an interrupted `tools/call` carries across MCP's multi-round-trip flow:
 * which call it was, whether a human already approved it, and the question a
 * suspension asked. It travels through the client, so it is sealed with the SDK's
 * `createRequestStateCodec` (HMAC-SHA256, a key that never leaves this server, an
 * expiry) and bound to the tool name and the exact arguments. Decision 081.
 */
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { RecordedInput } from './input-rounds.ts';
import { type StateKey, stateKey } from './state-key.ts';

/** What a continued call has established so far. */
export interface CallState {
  approved: boolean;
  /** Set when the tool suspended and its question is awaiting the user's answer. */
  question?: string;
  /** The answer to `question`, once given, while the call asks more (2026-07-28). */
  resumed?: { value: unknown };
  /** What `ctx.sample()`/`ctx.elicit()` got in earlier rounds, in order (2026-07-28). */
  inputs?: RecordedInput[];
}

interface SealedState extends CallState {
  tool: string;
  args: string;
}

/** How long a sealed state stays valid: a human answers an approval or a question in this time. */
export const CALL_STATE_TTL_SECONDS = 3600;

/**
 * Seals and opens call states with the server's `stateKey` (decision 206), or one random
 * key per server instance.
 */
export class CallStateCodec {
  readonly #codec: RequestStateCodec<SealedState>;

  constructor(key?: StateKey) {
    this.#codec = createRequestStateCodec<SealedState>({
      key: stateKey(key),
      ttlSeconds: CALL_STATE_TTL_SECONDS,
    });
  }

  /** The wire string for `state` of a call to `tool` with `args`. */
  seal(tool: string, args: unknown, state: CallState): Promise<string> {
    return this.#codec.mint({ ...state, tool, args: JSON.stringify(args ?? {}) });
  }

  /**
   * The state, when `sealed` was sealed here, has not expired, and names this very tool
   * and these arguments; otherwise undefined (the call starts over).
   */
  async open(
    sealed: string | undefined,
    tool: string,
    args: unknown,
  ): Promise<CallState | undefined> {
    if (typeof sealed !== 'string') return undefined;
    let state: SealedState;
    try {
      // The context is only read for a `bind` option, which this codec does not set.
      state = await this.#codec.verify(sealed, undefined as never);
    } catch {
      return undefined;
    }
    if (state?.tool !== tool || state.args !== JSON.stringify(args ?? {})) return undefined;
    const result: CallState = { approved: state.approved === true };
    if (typeof state.question === 'string') result.question = state.question;
    if (state.resumed !== undefined) result.resumed = state.resumed;
    if (Array.isArray(state.inputs)) result.inputs = state.inputs;
    return result;
  }
}
