import { showValue } from '../describe.ts';
import { issuesOf, passes, report, type Validate } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

type Data = Record<string, unknown>;

/**
 * Keys an object inherits from `Object.prototype` (`constructor`, `toString`, `__proto__`, …):
 * reading them from a plain object finds the prototype's value, so their presence is
 * checked with `Object.hasOwn`.
 */
const isInherited = (key: string) => key in Object.prototype;

/** Reads an own property: undefined when absent (an inherited `constructor` does not count). */
const readOwn = (data: Data, key: string, inherited: boolean): unknown =>
  inherited ? (Object.hasOwn(data, key) ? data[key] : undefined) : data[key];

const properties = (count: number) => (count === 1 ? '1 property' : `${count} properties`);

function countKeys(data: Data): number {
  let count = 0;
  for (const _ in data) count++;
  return count;
}

/** `propertyNames`, `dependentRequired`, `dependentSchemas`, `dependencies`, `minProperties`, `maxProperties`. */
export function compileObjects(scope: NodeScope, checks: Checks): void {
  const { read, info, sub } = scope;
  const validation = info.dialect.validation;
  if (read.has('propertyNames'))
    checks.object.push(compilePropertyNames(sub(read.schema.propertyNames, 'propertyNames')));
  compileDependencies(scope, checks);
  if (!validation) return;
  const minProperties = read.count('minProperties');
  const maxProperties = read.count('maxProperties');
  if (minProperties !== undefined) {
    checks.object.push((data, st) => {
      const count = countKeys(data as Data);
      return (
        count >= minProperties ||
        report(
          st,
          'minProperties',
          `expected at least ${properties(minProperties)}, received ${count}`,
          data,
        )
      );
    });
  }
  if (maxProperties !== undefined) {
    checks.object.push((data, st) => {
      const count = countKeys(data as Data);
      return (
        count <= maxProperties ||
        report(
          st,
          'maxProperties',
          `expected at most ${properties(maxProperties)}, received ${count}`,
          data,
        )
      );
    });
  }
}

function compilePropertyNames(validate: Validate): Validate {
  return (data, st) => {
    const annot = st.annot;
    st.annot = null;
    let ok = true;
    for (const key in data as Data) {
      if (passes(validate, key, st)) continue;
      ok = false;
      if (st.issues === null) break;
      const reason = issuesOf(validate, key, st)[0]?.message ?? 'does not match "propertyNames"';
      report(st, 'propertyNames', `invalid property name ${showValue(key)}: ${reason}`, key, key);
    }
    st.annot = annot;
    return ok;
  };
}

/** `dependentRequired`, `dependentSchemas` and draft-07 `dependencies` (both forms). */
function compileDependencies(scope: NodeScope, checks: Checks): void {
  const { read, info, sub } = scope;
  const required: Array<[string, string[]]> = [];
  const schemas: Array<[string, Validate]> = [];
  const collect = (keyword: string, allowRequired: boolean, allowSchemas: boolean) => {
    const map = read.object(keyword);
    if (map === undefined) return;
    for (const key of Object.keys(map)) {
      const value = map[key];
      if (Array.isArray(value) && allowRequired) {
        if (!value.every((name) => typeof name === 'string'))
          read.fail(keyword, 'arrays of property names');
        if (info.dialect.validation) required.push([key, value]);
      } else if (allowSchemas) {
        schemas.push([
          key,
          sub(value, `${keyword}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`),
        ]);
      } else {
        read.fail(keyword, 'arrays of property names');
      }
    }
  };
  if (info.dialect.draft === 7) collect('dependencies', true, true);
  else {
    collect('dependentRequired', true, false);
    collect('dependentSchemas', false, true);
  }
  for (const [key, names] of required) {
    const inherited = isInherited(key);
    const namesInherited = names.map(isInherited);
    checks.object.push((data, st) => {
      if (readOwn(data as Data, key, inherited) === undefined) return true;
      let ok = true;
      for (let i = 0; i < names.length; i++) {
        if (readOwn(data as Data, names[i], namesInherited[i]) !== undefined) continue;
        if (st.issues === null) return false;
        report(
          st,
          'dependentRequired',
          `missing property "${names[i]}", required when "${key}" is present`,
          undefined,
          names[i],
        );
        ok = false;
      }
      return ok;
    });
  }
  for (const [key, validate] of schemas) {
    const inherited = isInherited(key);
    checks.object.push(
      (data, st) => readOwn(data as Data, key, inherited) === undefined || validate(data, st),
    );
  }
}
