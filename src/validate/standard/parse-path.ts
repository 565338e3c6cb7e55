/**
 * Reads a fino issue path (`items[1].name`, `headers["content-type"]`, see
 * docs/decisions/010) back into its segments, for Standard Schema issues.
 */
export function parsePath(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  let at = 0;
  while (at < path.length) {
    if (path[at] === '.') at++;
    if (path[at] === '[') {
      const end = path[at + 1] === '"' ? endOfQuoted(path, at + 1) + 1 : path.indexOf(']', at);
      const inner = path.slice(at + 1, end);
      segments.push(inner.startsWith('"') ? (JSON.parse(inner) as string) : Number(inner));
      at = end + 1;
    } else {
      const match = /^[^.[]*/.exec(path.slice(at))![0];
      segments.push(match);
      at += match.length;
    }
  }
  return segments;
}

/** The index of the quote that closes the JSON string starting at `start`. */
function endOfQuoted(path: string, start: number): number {
  let at = start + 1;
  while (at < path.length && path[at] !== '"') at += path[at] === '\\' ? 2 : 1;
  return at;
}
