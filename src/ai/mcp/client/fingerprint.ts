/**
 * Tool-definition fingerprints: a hash of everything a client trusted about a remote
 * tool, so a definition that changes after approval is noticed. See docs/decisions/044.
 */
import { canonicalJson } from '../../../internal/canonical-json.ts';
import { sha256Hex } from '../../../internal/sha256.ts';

/** The parts of a remote tool's definition that a fingerprint covers. */
export interface FingerprintedDefinition {
  name: string;
  [field: string]: unknown;
}

/** How a listing differs from the previous one. */
export interface ToolsDiff {
  /** Tools that appeared. */
  added: string[];
  /** Tools that disappeared. */
  removed: string[];
  /** Tools whose definition (description, schemas, annotations…) changed. */
  changed: string[];
}

/**
 * SHA-256 of the definition's canonical JSON (object keys sorted, `undefined` members left
 * out), as hex. Clients may pin these, so the text hashed must not change (decision 067).
 */
export function fingerprint(definition: FingerprintedDefinition): string {
  return sha256Hex(canonicalJson(definition));
}

/** The difference between two name → fingerprint maps; `undefined` when they agree. */
export function diffFingerprints(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): ToolsDiff | undefined {
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after.keys()].filter(
    (name) => before.has(name) && before.get(name) !== after.get(name),
  );
  return added.length + removed.length + changed.length === 0
    ? undefined
    : { added, removed, changed };
}
