import type { Issue } from '../issues.ts';
import { formatPath } from './path.ts';

/**
 * What in-place subschemas evaluated at one instance location, for
 * `unevaluatedProperties` and `unevaluatedItems`.
 */
export interface Annotations {
  /** Object keys evaluated by `properties`, `patternProperties`, … */
  props: Set<string>;
  /** True once `additionalProperties` or `unevaluatedProperties` evaluated every key. */
  allProps: boolean;
  /** Array items `[0, items)` were evaluated (`Infinity`: all of them). */
  items: number;
  /** Array indexes evaluated by `contains`. */
  contains: Set<number> | null;
}

/** The mutable state of one validation run, threaded through every closure. */
export interface State {
  /** `null` in the fast pass (stop at the first failure); the collected issues otherwise. */
  issues: Issue[] | null;
  /** Path of the current value (maintained only while collecting issues). */
  path: (string | number)[];
  /** How many schema references deep the evaluation is. */
  depth: number;
  maxDepth: number;
  /** Where to record evaluated keys/items, when an enclosing schema has `unevaluated*`. */
  annot: Annotations | null;
  /** Dynamic scope: URIs of the entered schema resources that declare `$dynamicAnchor`s. */
  scope: string[];
}

/** A compiled schema node: true when `data` is valid; records issues when `st.issues` is set. */
export type Validate = (data: unknown, st: State) => boolean;

export function newState(maxDepth: number, issues: Issue[] | null): State {
  return { issues, path: [], depth: 0, maxDepth, annot: null, scope: [] };
}

export function newAnnotations(): Annotations {
  return { props: new Set(), allProps: false, items: 0, contains: null };
}

/** Adds what a successful in-place subschema evaluated to its parent's annotations. */
export function mergeAnnotations(into: Annotations, from: Annotations): void {
  for (const key of from.props) into.props.add(key);
  if (from.allProps) into.allProps = true;
  if (from.items > into.items) into.items = from.items;
  if (from.contains !== null) {
    into.contains ??= new Set();
    for (const index of from.contains) into.contains.add(index);
  }
}

/** Records an issue at the current path (or one segment below it). Only call while collecting. */
export function report(
  st: State,
  keyword: string,
  message: string,
  value: unknown,
  segment?: string | number,
): false {
  if (st.issues === null) return false;
  if (segment !== undefined) st.path.push(segment);
  const issue: Issue = { path: formatPath(st.path), message, keyword };
  if (value !== undefined) issue.value = value;
  if (segment !== undefined) st.path.pop();
  st.issues.push(issue);
  return false;
}

/** Validates `value` found under `key` of the current value: one data level down. */
export function child(
  validate: Validate,
  value: unknown,
  key: string | number,
  st: State,
): boolean {
  const annot = st.annot;
  const collecting = st.issues !== null;
  if (annot === null && !collecting) return validate(value, st);
  st.annot = null;
  if (collecting) st.path.push(key);
  const ok = validate(value, st);
  if (collecting) st.path.pop();
  st.annot = annot;
  return ok;
}

/**
 * Thrown when references nest deeper than `maxDepth`: the value cannot be validated, so
 * evaluation stops at once (carrying on could revisit cyclic data exponentially often).
 */
export class DepthExceeded extends Error {
  constructor(
    readonly path: string,
    readonly value: unknown,
  ) {
    super('maximum depth exceeded');
  }
}

/**
 * Carries what a refinement function threw out of the closures, so that `safeParse` passes it
 * on to the caller (a refinement that throws is a bug in it) instead of reading it as a value
 * whose contents could not be read.
 */
export class RefinementThrew extends Error {
  constructor(readonly thrown: unknown) {
    super('a refinement threw');
  }
}

/**
 * Guards a schema reference: recursion (through data or not) can only happen through
 * references, so counting nested references bounds the stack.
 */
export function guarded(validate: Validate): Validate {
  return (data, st) => {
    if (st.depth >= st.maxDepth)
      throw new DepthExceeded(st.issues === null ? '' : formatPath(st.path), data);
    st.depth++;
    const ok = validate(data, st);
    st.depth--;
    return ok;
  };
}

/** Validates with `validate`, with `resource` entered in the dynamic scope (for `$dynamicRef`). */
export function entering(resource: string, validate: Validate): Validate {
  return (data, st) => {
    st.scope.push(resource);
    const ok = validate(data, st);
    st.scope.pop();
    return ok;
  };
}

/** Runs an in-place subschema in the fast pass, whatever the current mode: does it pass? */
export function passes(validate: Validate, data: unknown, st: State): boolean {
  const issues = st.issues;
  st.issues = null;
  const ok = validate(data, st);
  st.issues = issues;
  return ok;
}

/** Runs an in-place subschema and collects its issues apart; they are returned, not reported. */
export function issuesOf(validate: Validate, data: unknown, st: State): Issue[] {
  const issues = st.issues;
  const own: Issue[] = [];
  st.issues = own;
  validate(data, st);
  st.issues = issues;
  return own;
}

/**
 * Runs an in-place subschema whose annotations count only if it passes (`anyOf`,
 * `oneOf`, `if`): they go to a fresh set merged on success.
 */
export function branch(validate: Validate, data: unknown, st: State): boolean {
  const parent = st.annot;
  if (parent === null) return validate(data, st);
  const own = newAnnotations();
  st.annot = own;
  const ok = validate(data, st);
  st.annot = parent;
  if (ok) mergeAnnotations(parent, own);
  return ok;
}

/** Runs checks one after the other: all of them while collecting, up to the first failure otherwise. */
export function allOf(checks: readonly Validate[]): Validate {
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [a, b] = checks;
    return (data, st) => {
      if (a(data, st)) return b(data, st);
      if (st.issues !== null) b(data, st);
      return false;
    };
  }
  return (data, st) => {
    let ok = true;
    for (let i = 0; i < checks.length; i++) {
      if (!checks[i](data, st)) {
        if (st.issues === null) return false;
        ok = false;
      }
    }
    return ok;
  };
}

export const alwaysValid: Validate = () => true;
