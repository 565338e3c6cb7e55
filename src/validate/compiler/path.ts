/** `/^[A-Za-z_$][A-Za-z0-9_$]*$/`, written out: it runs for every segment of every issue path. */
function isIdentifier(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

/**
 * Renders path segments as an issue path: indexes as `[i]`, identifier keys dotted
 * (`a.b`), any other key as a bracketed JSON string (`headers["content-type"]`).
 */
export function formatPath(segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (isIdentifier(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
