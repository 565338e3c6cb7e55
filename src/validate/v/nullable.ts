import type { JsonSchemaObject } from '../json-schema.ts';

/**
 * Widens a schema node to also accept `null` (see docs/decisions/016). A node with a single
 * `type` and no `enum`/`const` gets a type list (`['string', 'null']`), the shape provider
 * tool-calling APIs document; an `enum` gains `null` as a value; anything else becomes
 * `anyOf: [node, { type: 'null' }]`. Returns the widened node and the node that carries the
 * builder's refinements.
 */
export function makeNullable(node: JsonSchemaObject): {
  outer: JsonSchemaObject;
  inner: JsonSchemaObject;
} {
  const { type } = node;
  if (typeof type === 'string' && !('const' in node) && !('enum' in node)) {
    node.type = type === 'null' ? 'null' : [type, 'null'];
    return { outer: node, inner: node };
  }
  if (typeof type === 'string' && Array.isArray(node.enum)) {
    node.type = type === 'null' ? 'null' : [type, 'null'];
    if (!node.enum.includes(null)) node.enum = [...node.enum, null];
    return { outer: node, inner: node };
  }
  if (type === undefined && Object.keys(node).length === 0) return { outer: node, inner: node };
  return { outer: { anyOf: [node, { type: 'null' }] }, inner: node };
}
