import {
  type Annotations,
  child,
  mergeAnnotations,
  newAnnotations,
  report,
  type Validate,
} from '../state.ts';
import type { NodeScope } from './scope.ts';

type Data = Record<string, unknown>;
type UnevaluatedCheck = (
  data: unknown,
  st: Parameters<Validate>[1],
  evaluated: Annotations,
) => boolean;

function unevaluatedProperties(value: unknown, validate: Validate): UnevaluatedCheck {
  return (data, st, evaluated) => {
    let ok = true;
    if (!evaluated.allProps) {
      for (const key in data as Data) {
        if (evaluated.props.has(key)) continue;
        const valid =
          value === false
            ? report(
                st,
                'unevaluatedProperties',
                `unexpected property "${key}"`,
                (data as Data)[key],
                key,
              )
            : child(validate, (data as Data)[key], key, st);
        if (!valid) {
          if (st.issues === null) return false;
          ok = false;
        }
      }
    }
    evaluated.allProps = true;
    return ok;
  };
}

function unevaluatedItems(value: unknown, validate: Validate): UnevaluatedCheck {
  return (data, st, evaluated) => {
    const array = data as unknown[];
    let ok = true;
    for (let i = evaluated.items; i < array.length; i++) {
      if (evaluated.contains?.has(i)) continue;
      const valid =
        value === false
          ? report(st, 'unevaluatedItems', `unexpected item at index ${i}`, array[i], i)
          : child(validate, array[i], i, st);
      if (!valid) {
        if (st.issues === null) return false;
        ok = false;
      }
    }
    evaluated.items = Number.POSITIVE_INFINITY;
    return ok;
  };
}

/**
 * Wraps a node's other keywords with `unevaluatedProperties`/`unevaluatedItems`: the
 * node's in-place keywords record what they evaluated, then the rest is checked here.
 */
export function withUnevaluated(scope: NodeScope, inner: Validate): Validate {
  const { read, sub, info } = scope;
  if (info.dialect.draft !== 2020) return inner;
  const properties = read.has('unevaluatedProperties')
    ? unevaluatedProperties(
        read.schema.unevaluatedProperties,
        sub(read.schema.unevaluatedProperties, 'unevaluatedProperties'),
      )
    : undefined;
  const items = read.has('unevaluatedItems')
    ? unevaluatedItems(
        read.schema.unevaluatedItems,
        sub(read.schema.unevaluatedItems, 'unevaluatedItems'),
      )
    : undefined;
  if (properties === undefined && items === undefined) return inner;
  return (data, st) => {
    const parent = st.annot;
    const evaluated = newAnnotations();
    st.annot = evaluated;
    let ok = inner(data, st);
    if (ok || st.issues !== null) {
      if (
        properties !== undefined &&
        typeof data === 'object' &&
        data !== null &&
        !Array.isArray(data)
      ) {
        ok = properties(data, st, evaluated) && ok;
      } else if (items !== undefined && Array.isArray(data)) {
        ok = items(data, st, evaluated) && ok;
      }
    }
    st.annot = parent;
    if (ok && parent !== null) mergeAnnotations(parent, evaluated);
    return ok;
  };
}
