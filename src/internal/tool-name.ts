/**
 * The tool-name rule OpenAI and Anthropic enforce: 1 to 64 letters, digits, `_` or `-`.
 * The agent checks every tool against it (docs/decisions/078); providers check the name
 * of a structured-output schema against it.
 */
export const TOOL_NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;
