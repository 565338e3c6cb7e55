import { report, type Validate } from '../state.ts';
import { compileDiscriminator } from './discriminator.ts';
import type { Checks, NodeScope } from './scope.ts';
import { anyOf, type BranchTypes, oneOf, quietBranch } from './unions.ts';

function subschemas(scope: NodeScope, keyword: string): Validate[] | undefined {
  const list = scope.read.array(keyword);
  if (list === undefined) return undefined;
  if (list.length === 0) scope.read.fail(keyword, 'a non-empty array of schemas');
  return list.map((value, i) => scope.sub(value, `${keyword}/${i}`));
}

/** What each schema of `keyword`'s list declares with `type` (read after compiling them). */
function typesOf(scope: NodeScope, keyword: string): BranchTypes {
  return (scope.read.schema[keyword] as unknown[]).map((value) => scope.ctx.typesOf(value));
}

/** `allOf`, `anyOf`, `oneOf` (with an optional `discriminator`), `not`, `if`/`then`/`else`. */
export function compileCombinators(scope: NodeScope, checks: Checks): void {
  const { read, sub } = scope;
  const all = subschemas(scope, 'allOf');
  if (all !== undefined) checks.any.push(...all);
  const any = subschemas(scope, 'anyOf');
  if (any !== undefined)
    checks.any.push(any.length === 1 ? any[0] : anyOf(any, typesOf(scope, 'anyOf')));
  const one = subschemas(scope, 'oneOf');
  if (one !== undefined) {
    const generic = oneOf(one, typesOf(scope, 'oneOf'));
    checks.any.push(compileDiscriminator(scope, one, generic) ?? generic);
  }
  if (read.has('not')) {
    const validate = sub(read.schema.not, 'not');
    checks.any.push((data, st) => {
      const annot = st.annot;
      const issues = st.issues;
      st.annot = null;
      st.issues = null;
      const matched = validate(data, st);
      st.annot = annot;
      st.issues = issues;
      return (
        !matched || report(st, 'not', 'expected the value not to match the "not" schema', data)
      );
    });
  }
  if (read.has('if')) {
    const condition = sub(read.schema.if, 'if');
    const then = read.has('then') ? sub(read.schema.then, 'then') : undefined;
    const otherwise = read.has('else') ? sub(read.schema.else, 'else') : undefined;
    checks.any.push((data, st) => {
      if (then === undefined && otherwise === undefined && st.annot === null) return true;
      if (quietBranch(condition, data, st)) return then === undefined || then(data, st);
      return otherwise === undefined || otherwise(data, st);
    });
  }
}
