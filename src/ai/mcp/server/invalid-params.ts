/**
 * Requests whose params the SDK's wire schema refuses: the SDK answers them with its
 * schema library's issue list as the message, serialized JSON, and (for every method
 * but `tools/call`) as an internal error, `-32603`. `mcpServer()` answers them instead
 * with `-32602` and a sentence per issue naming the field and what it expected.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** One issue as the SDK's schema library serializes it. */
interface SchemaIssue {
  path: (string | number)[];
  message: string;
  errors?: SchemaIssue[][];
}

/** The longest message an invalid-params error carries. */
const MAX_MESSAGE_CHARS = 1000;

/**
 * `thrown` as an `InvalidParams` error naming each wrong field of `method`'s params when
 * it is the SDK's refusal of them, else `thrown` itself.
 */
export function readableParamsError(method: string, thrown: unknown): unknown {
  if (!(thrown instanceof Error)) return thrown;
  const prefix = `Invalid ${method} request: `;
  const dump = thrown.message.startsWith(prefix)
    ? thrown.message.slice(prefix.length)
    : thrown.message;
  const issues = schemaIssues(dump);
  if (issues === undefined) return thrown;
  const message = `Invalid params for ${method}: ${issues.map(describeIssue).join('; ')}`;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message,
  );
}

/** The issues of a serialized issue list, or `undefined` when `text` is not one. */
function schemaIssues(text: string): SchemaIssue[] | undefined {
  if (!text.startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : undefined;
}

function isIssue(value: unknown): value is SchemaIssue {
  const issue = value as SchemaIssue;
  return (
    typeof issue === 'object' &&
    issue !== null &&
    Array.isArray(issue.path) &&
    typeof issue.message === 'string'
  );
}

/** `uri: expected string, received number`; a union lists what each shape wanted. */
function describeIssue(issue: SchemaIssue): string {
  const where = fieldPath(issue.path);
  const branches = issue.errors?.filter((branch) => branch.length > 0) ?? [];
  if (branches.length > 0) {
    const wanted = branches.map((branch) => branch.map(describeIssue).join(', '));
    return `${where}: matches none of the accepted shapes (${wanted.join('; or ')})`;
  }
  return `${where}: ${issue.message.replace(/^Invalid (input|option): /, '')}`;
}

/** `params.arguments.n` → `arguments.n`, `[0]` for indexes; `params` for the whole. */
function fieldPath(path: (string | number)[]): string {
  const inside = path[0] === 'params' ? path.slice(1) : path;
  let text = '';
  for (const key of inside) text += typeof key === 'number' ? `[${key}]` : text ? `.${key}` : key;
  return text || 'params';
}
