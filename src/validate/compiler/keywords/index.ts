/**
 * `validate/compiler/keywords`: what each JSON Schema keyword compiles to. `../node.ts`
 * hands every keyword of a schema object to the compiler of its family, which adds its
 * checks to the node's `Checks` by JSON type (`scope.ts`: the node's scope and checks).
 *
 * The files: `type.ts` (`type`, and the JSON types), `values.ts` (`enum`, `const`),
 * `numbers.ts`, `strings.ts` (lengths, `pattern`, `format`), `arrays.ts`, `objects.ts`
 * and `properties.ts` (the object keywords and the properties of a known shape),
 * `combinators.ts` (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, with the union
 * loops of `unions.ts`, the `discriminator` of `discriminator.ts` and the nearest failed
 * branch of `closest-branch.ts`), `refs.ts` (`$ref`, `$dynamicRef`), `unevaluated.ts`
 * (`unevaluatedProperties`, `unevaluatedItems`); the fast paths: `leaf.ts` (leaf schemas
 * described as data) and `inline-type-checks.ts` (a node's type test, inlined).
 *
 * May import: the compiler's files (`../state.ts`, `../describe.ts`, `../once.ts`,
 * `../equal.ts`, `../canonical-key.ts`, `../path.ts`, `../pointer.ts`, `../shape.ts`,
 * the types of `../context.ts`, `../expect.ts` and `../regex.ts`), `../../formats/`
 * through its `index.ts`, and the types of `../../issues.ts`; never `../node.ts`, which
 * compiles a node with these. The compiler imports the room through this file, except
 * `../shape.ts`, which imports `./leaf.ts` directly: `arrays.ts` and `properties.ts`
 * import `../shape.ts`, so going through this file would be a runtime cycle.
 */
export { compileArrays } from './arrays.ts';
export { compileCombinators } from './combinators.ts';
export { typed } from './inline-type-checks.ts';
export {
  ANY,
  describeLeaf,
  isAnnotation,
  isTypeOnlyNode,
  Leaf,
  leafFirst,
  typeOnlyLeaf,
} from './leaf.ts';
export { compileNumbers } from './numbers.ts';
export { compileObjects } from './objects.ts';
export { compileProperties } from './properties.ts';
export { compileRefs } from './refs.ts';
export type { Checks, NodeScope } from './scope.ts';
export { compileStrings } from './strings.ts';
export { compileType, type JsonType, readTypes } from './type.ts';
export { withUnevaluated } from './unevaluated.ts';
export { compileValues } from './values.ts';
