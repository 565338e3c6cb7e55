/**
 * `validate/compiler`: turns a JSON Schema (draft-07 or 2020-12) into a validating
 * closure — each schema node compiled once, references closing on themselves — plus the
 * fast pass over the shapes tool arguments are made of, and the state a validation
 * collects its issues in. `../compile.ts` is the public face that drives it.
 *
 * The files: one compilation (`context.ts`: resources, anchors and compiled nodes;
 * `node.ts`: one schema node, its keywords compiled by `keywords/`; `node-info.ts`,
 * `dialect.ts`, `uri.ts`, `expect.ts` for reading keyword values, `schema-error.ts`);
 * a validation's state and issues (`state.ts`, `unreadable.ts`, `path.ts`,
 * `pointer.ts`); the fast pass (`shape.ts`); `default`s (`defaults.ts`); patterns
 * (`regex.ts` on re2js, `native-pattern.ts`, `unicode-properties.ts`,
 * `code-point-ranges.ts`); JSON equality (`equal.ts`, `canonical-key.ts`); messages
 * (`describe.ts`, `once.ts`).
 *
 * May import: `keywords/` through its `index.ts` (`shape.ts` excepted, see there),
 * `../metaschemas/index.ts`, the types of `../issues.ts`, `re2js`, and
 * `src/internal/`; never `../compile.ts`, `../v/` or `../standard/`, which build on it.
 * The rest of `validate` imports the compiler through this file.
 */
export { CompileContext, type SchemaNode } from './context.ts';
export { compileDefaults } from './defaults.ts';
export { describeValue, showValue } from './describe.ts';
export { formatPath } from './path.ts';
export { pointerTokens } from './pointer.ts';
export { compilePattern, PatternError } from './regex.ts';
export { SchemaError } from './schema-error.ts';
export { conforms, type Shape } from './shape.ts';
export { DepthExceeded, newState, RefinementThrew, type State } from './state.ts';
export { unreadableIssue } from './unreadable.ts';
