/**
 * One rule for options objects across the package: a key the function does not know is
 * refused, never ignored, and the refusal names the key, the closest known name and the
 * whole list (docs/decisions/108). Each module throws its own error class with the message.
 */
import { showValue } from './describe-value.ts';

/** Keys longer than this get no suggestion (the distance is not worth computing). */
const MAX_SUGGESTED_LENGTH = 64;

/**
 * The refusal for the first own key of `value` that is not in `known`, or `undefined`
 * when every key is known. `hints` suggests a name for keys no edit distance would find
 * (another library's spelling: `thinking` for `reasoning`); the text follows "did you mean".
 *
 * @example
 * ```ts
 * import { unknownKeyMessage } from './known-keys.ts';
 *
 * unknownKeyMessage('run options', { onStepStrat() {} }, ['signal', 'onStepStart']);
 * // 'run options: unknown option "onStepStrat"; did you mean "onStepStart"? expected one of signal, onStepStart'
 * ```
 */
export function unknownKeyMessage(
  where: string,
  value: object,
  known: readonly string[],
  hints?: Readonly<Record<string, string>>,
): string | undefined {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = hints !== undefined && Object.hasOwn(hints, key) ? hints[key] : undefined;
    const closest = hint ?? closestName(key, known);
    const suggestion = closest === undefined ? '' : ` did you mean ${closest}?`;
    const list = known.length > 0 ? ` expected one of ${known.join(', ')}` : ' expected no options';
    return `${where}: unknown option ${showValue(key)};${suggestion}${list}`;
  }
  return undefined;
}

/**
 * The known name nearest to `name` (quoted), when it is near enough to be a slip: the
 * same name in another case, the start of a known name missing at most 2 characters, or within 1 edit for names up to 4 characters, 2 up to 8,
 * 3 beyond (an edit adds, removes or changes a character, or swaps two neighbours).
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const best = nearestName(name, known);
  return best === undefined ? undefined : showValue(best);
}

/** {@link closestName}, unquoted: the known name itself, for a message that shows names bare. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  if (name.length > MAX_SUGGESTED_LENGTH) return undefined;
  const lower = name.toLowerCase();
  const sameCase = known.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const allowed = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    // A unit suffix left out (`idle` for `idleMs`) counts as a slip at any length.
    const cut = other.startsWith(lower) && other.length - lower.length <= 2;
    const distance = cut
      ? Math.min(allowed, other.length - lower.length)
      : editDistance(lower, other);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, before[j - 2] + 1);
      }
      current[j] = distance;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known command-line flag nearest to `flag` when it reads as a slip (`--fromat` for
 * `--format`), by {@link nearestName} on the names without their leading dashes.
 */
export function nearestFlag(flag: string, known: readonly string[]): string | undefined {
  const bare = (name: string) => name.replace(/^-+/, '');
  const name = nearestName(bare(flag), known.map(bare));
  return name === undefined ? undefined : known.find((candidate) => bare(candidate) === name);
}
