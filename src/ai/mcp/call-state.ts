/**
 * The state an interrupted `tools/call` carries across MCP's multi-round-trip flow:
 * which call it was, whether a human already approved it, and the question a
 * suspension asked. It travels through the client, so it is signed with a key that
 * never leaves this server and bound to the tool name and the exact arguments.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a continued call has established so far. */
export interface CallState {
  approved: boolean;
  /** Set when the tool suspended and its question is awaiting the user's answer. */
  question?: string;
}

interface SignedState extends CallState {
  tool: string;
  args: string;
}

/** Signs and verifies call states with one random key per server instance. */
export class CallStateSigner {
  readonly #key = randomBytes(32);

  sign(tool: string, args: unknown, state: CallState): string {
    const body = Buffer.from(
      JSON.stringify({ ...state, tool, args: JSON.stringify(args ?? {}) }),
    ).toString('base64url');
    return `${body}.${this.#mac(body)}`;
  }

  /** The state, when `token` was signed here for this very tool and these arguments. */
  verify(token: string | undefined, tool: string, args: unknown): CallState | undefined {
    if (typeof token !== 'string') return undefined;
    const dot = token.indexOf('.');
    if (dot < 0) return undefined;
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.#mac(body));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
    const state = JSON.parse(Buffer.from(body, 'base64url').toString()) as SignedState;
    if (state.tool !== tool || state.args !== JSON.stringify(args ?? {})) return undefined;
    const result: CallState = { approved: state.approved === true };
    if (typeof state.question === 'string') result.question = state.question;
    return result;
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}
