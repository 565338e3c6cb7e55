/**
 * Structured output checked on both sides of MCP: a server's `structuredContent` against
 * the tool's `outputSchema` before it is sent, a remote server's against the schema it
 * listed before it is returned. A mismatch becomes an `isError` result naming the field,
 * never an invalid response. See docs/decisions/093.
 */
import type { ContentPart, ToolResultObject } from '../../../task/index.ts';
import {
  type CompiledValidator,
  compile,
  formatIssues,
  type SchemaLike,
} from '../../../validate/index.ts';
import { resultParts } from './content.ts';

/** A compiled output schema, or `undefined` for a tool that declares none. */
export type OutputValidator = CompiledValidator<unknown> | undefined;

/** Compiles a tool's output schema once; `where` names it in the error of an unusable one. */
export function outputValidator(schema: SchemaLike | undefined, where: string): OutputValidator {
  if (schema === undefined) return undefined;
  try {
    return compile(schema);
  } catch (error) {
    throw new TypeError(`${where}: outputSchema is unusable: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * The structured content of a successful result: the tool's own `structuredContent`, or
 * (with a schema) its only part parsed as a JSON object, checked against `validator`;
 * `problem` says why the result does not qualify. Without a schema only the tool's own
 * `structuredContent` counts, unchecked.
 */
export function structuredOutput(
  toolName: string,
  result: ToolResultObject,
  validator: OutputValidator,
): { value?: Record<string, unknown>; problem?: string } {
  if (validator === undefined) {
    const given = result.structuredContent;
    return given === undefined ? {} : { value: given };
  }
  const value = result.structuredContent ?? jsonObjectOf(resultParts(result.content));
  if (value === undefined) {
    return {
      problem: `Tool "${toolName}" declares an outputSchema, but its result is not a JSON object (expected structured content or one text part holding a JSON object).`,
    };
  }
  const checked = validator.safeParse(value);
  if (!checked.success) {
    return {
      problem: `Tool "${toolName}" returned output that does not match its outputSchema:\n${formatIssues(checked.issues)}`,
    };
  }
  return { value };
}

/** Adds the text form of `value` to `parts` unless a text part already carries it. */
export function withTextForm(parts: ContentPart[], value: Record<string, unknown>): ContentPart[] {
  return parts.some((part) => part.type === 'text')
    ? parts
    : [...parts, { type: 'text', text: JSON.stringify(value) }];
}

function jsonObjectOf(parts: ContentPart[]): Record<string, unknown> | undefined {
  const [first, ...rest] = parts;
  if (first?.type !== 'text' || rest.length > 0) return undefined;
  try {
    const value: unknown = JSON.parse(first.text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // prose, not JSON
  }
}
