/** Parses a tool call's argument text once; malformed JSON yields the raw text and why it failed. */
export function parseToolArgs(text: string): { args: unknown; argsError?: string } {
  if (text.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { args: text, argsError: `The arguments were not valid JSON (${reason})` };
  }
}
