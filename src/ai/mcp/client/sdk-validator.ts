/**
 * fino's validator behind the SDK client's JSON Schema checks, so what the SDK refuses
 * (a remote tool's structured output) is worded like every other fino validation issue,
 * field by field. See docs/decisions/093.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import { compile, formatIssues } from '../../../validate/index.ts';

/** A `jsonSchemaValidator` for the SDK `Client`, built on `fino:validate`'s `compile`. */
export const finoJsonSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown) {
    const validator = compile(schema as Record<string, unknown>);
    return (input: unknown) => {
      const checked = validator.safeParse(input);
      return checked.success
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: formatIssues(checked.issues) };
    };
  },
};

const REFUSED_OUTPUT = [
  "Structured content does not match the tool's output schema: ",
  'has an output schema but did not return structured content',
];

/**
 * The `isError` text for an SDK error refusing a remote tool's structured output, or
 * `undefined` for any other error.
 */
export function refusedOutputMessage(toolName: string, error: unknown): string | undefined {
  const message = (error as Error | undefined)?.message;
  if (typeof message !== 'string') return undefined;
  const [mismatch, missing] = REFUSED_OUTPUT as [string, string];
  const at = message.indexOf(mismatch);
  if (at !== -1) {
    return `The remote server's answer was refused. Tool "${toolName}" returned output that does not match its outputSchema:\n${message.slice(at + mismatch.length)}`;
  }
  if (message.includes(missing)) {
    return `The remote server's answer was refused. Tool "${toolName}" declares an outputSchema, but its result has no structured content.`;
  }
  return undefined;
}
