/** Escapes one JSON Pointer token (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The tokens of a URI fragment holding a JSON Pointer (`/a~1b/0` → `['a/b', '0']`). */
export function pointerTokens(fragment: string): string[] {
  if (fragment === '') return [];
  return fragment
    .slice(1)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
}
