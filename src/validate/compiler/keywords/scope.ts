import type { CompileContext, NodeInfo } from '../context.ts';
import type { KeywordReader } from '../expect.ts';
import type { Validate } from '../state.ts';

/** The checks a schema node's keywords compile to, by the JSON type they apply to. */
export interface Checks {
  /** Checks for every value (`enum`, `allOf`, `$ref`, …). */
  any: Validate[];
  string: Validate[];
  number: Validate[];
  /** Checks for non-array objects. */
  object: Validate[];
  array: Validate[];
}

/** What a keyword compiler sees: the schema object, where it sits, and how to compile a subschema. */
export interface NodeScope {
  ctx: CompileContext;
  read: KeywordReader;
  info: NodeInfo;
  /** Compiles the subschema at `suffix` (a JSON Pointer suffix such as `properties/a`). */
  sub(value: unknown, suffix: string): Validate;
}
