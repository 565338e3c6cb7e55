/**
 * The characters a terminal acts on instead of showing: C0 controls, DEL, C1 controls,
 * and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that
 * reorder how a line reads. The CLI escapes them in what it prints, and a command line
 * it prints for a person to copy writes them so that none reaches the terminal.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: naming control characters is the point
export const TERMINAL_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
