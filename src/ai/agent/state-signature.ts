/**
 * Signed run states (`stateSecret`, decision 133): an HMAC-SHA256 over the state's
 * canonical JSON, without its `signature`, so that a state that travelled through a
 * client and came back changed is refused before anything in it is trusted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../../internal/canonical-json.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import type { RunState } from './types.ts';

/** The prefix of a signature: the scheme, so that a later one can be told apart. */
const SCHEME = 'hmac-sha256:';

/** The fewest bytes (or characters) a state secret has: HMAC-SHA256's own key size. */
export const MIN_SECRET_BYTES = 32;

/** A secret as `agent()` accepts it. */
export type StateSecret = string | Uint8Array;

/** The signature of `state` (its `signature` left out) under `secret`. */
function signatureOf(state: object, secret: StateSecret): string {
  const { signature: _ignored, ...signed } = state as { signature?: unknown };
  const hmac = createHmac('sha256', secret).update(canonicalJson(signed));
  return `${SCHEME}${hmac.digest('base64url')}`;
}

/** Signs `state` in place under `secret` and returns it. */
export function signState(state: RunState, secret: StateSecret): RunState {
  delete state.signature;
  state.signature = signatureOf(state, secret);
  return state;
}

/**
 * Checks that `value`, a state object, carries a signature made with `secret` over its
 * content; throws an `AgentError` with code `INVALID_SIGNATURE` otherwise.
 */
export function verifyState(value: object, secret: StateSecret): void {
  const given: unknown = (value as { signature?: unknown }).signature;
  if (typeof given !== 'string' || !given.startsWith(SCHEME)) {
    throw new AgentError(
      'INVALID_SIGNATURE',
      `state.signature: expected the signature this agent's stateSecret made ("${SCHEME}…"), received ${describe(given)}; a state must come from an agent with the same stateSecret`,
    );
  }
  const expected = Buffer.from(signatureOf(value, secret));
  const received = Buffer.from(given);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) {
    throw new AgentError(
      'INVALID_SIGNATURE',
      'state.signature: the state was changed after it was signed, or signed with another stateSecret; it is refused',
    );
  }
}

/** Checks the `stateSecret` option: a string or bytes of at least 32, or absent. */
export function checkStateSecret(secret: unknown): StateSecret | undefined {
  if (secret === undefined) return undefined;
  const size =
    typeof secret === 'string'
      ? Buffer.byteLength(secret)
      : secret instanceof Uint8Array
        ? secret.byteLength
        : -1;
  if (size < MIN_SECRET_BYTES) {
    // The value itself is never shown: it is a secret.
    const received =
      size >= 0
        ? `${typeof secret === 'string' ? 'a string' : 'a Uint8Array'} of ${size} bytes`
        : secret === null
          ? 'null'
          : typeof secret;
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).stateSecret: expected a string or Uint8Array of at least ${MIN_SECRET_BYTES} bytes (e.g. randomBytes(32).toString('base64url')), received ${received}`,
    );
  }
  return typeof secret === 'string' ? secret : new Uint8Array(secret as Uint8Array);
}
