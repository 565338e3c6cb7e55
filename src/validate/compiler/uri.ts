/** The base URI of a root schema that has no `$id`: relative references resolve against it. */
export const DEFAULT_BASE = 'fino:/schema.json';

/** Resolves a URI reference against a base URI; undefined when it cannot be resolved. */
export function resolveUri(reference: string, base: string): string | undefined {
  try {
    const href = new URL(reference, base).href;
    return href.endsWith('#') ? href.slice(0, -1) : href;
  } catch {
    return undefined;
  }
}

/** Splits a URI into the resource part and its fragment (without `#`). */
export function splitFragment(uri: string): [resource: string, fragment: string] {
  const hash = uri.indexOf('#');
  return hash < 0 ? [uri, ''] : [uri.slice(0, hash), uri.slice(hash + 1)];
}
