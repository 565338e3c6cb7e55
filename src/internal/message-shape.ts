/**
 * The shape every model message has — `{ role: 'user' | 'assistant' | 'system', content:
 * string | parts[] }` — checked where messages come from outside: an agent's input,
 * history and stored state, and a session's stored thread messages.
 *
 * @example
 * ```ts
 * import { hasMessageShape } from './message-shape.ts';
 *
 * hasMessageShape({ role: 'user', content: 'hi' }); // true
 * hasMessageShape({ role: 'tool', content: 'x' }); // false
 * ```
 */
export function hasMessageShape(value: unknown): boolean {
  const m = value as { role?: unknown; content?: unknown } | null;
  return (
    m !== null &&
    typeof m === 'object' &&
    (m.role === 'user' || m.role === 'assistant' || m.role === 'system') &&
    (typeof m.content === 'string' || Array.isArray(m.content))
  );
}

/** What {@link hasMessageShape} expects, for error messages. */
export const MESSAGE_SHAPE =
  "{ role: 'user' | 'assistant' | 'system', content: string | ContentPart[] }";
