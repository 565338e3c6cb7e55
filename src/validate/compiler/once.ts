/**
 * A text computed on first use, then kept: for the parts of issue messages that depend
 * only on the schema (an enum's list of values), which most validators never report and
 * which should not be rendered again for every issue.
 */
export function once(make: () => string): () => string {
  let text: string | undefined;
  return () => {
    text ??= make();
    return text;
  };
}
