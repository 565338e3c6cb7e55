import type { Issue } from '../issues.ts';
import { describeError } from './describe.ts';
import { formatPath } from './path.ts';

/**
 * The issue for a value whose reading threw (a throwing getter, a Proxy whose trap throws, a
 * revoked Proxy). Validation knows only which value it was checking when the read threw
 * (`at`), so the value there is probed: when one of its own properties is what throws, the
 * issue names that property (`user.name`); when the value cannot even be listed, the value
 * itself. Probing reads the hostile value again, inside `try`, and only on this error path.
 */
export function unreadableIssue(
  root: unknown,
  at: readonly (string | number)[],
  error: unknown,
): Issue {
  const path = [...at];
  let thrown = error;
  try {
    let node = root;
    for (const segment of at) node = (node as Record<string | number, unknown>)[segment];
    if (typeof node === 'object' && node !== null) {
      const isArray = Array.isArray(node);
      for (const key of Object.keys(node)) {
        try {
          void (node as Record<string, unknown>)[key];
        } catch (fromKey) {
          path.push(isArray ? Number(key) : key);
          thrown = fromKey;
          break;
        }
      }
    }
  } catch {
    // The value (or one on the way to it) cannot be read at all: the issue stays at `at`.
  }
  return {
    path: formatPath(path),
    message: `could not read the value at this path: ${describeError(thrown)}`,
    keyword: 'read',
  };
}
