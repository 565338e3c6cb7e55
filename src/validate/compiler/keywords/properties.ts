import { showList } from '../describe.ts';
import { once } from '../once.ts';
import { escapeToken } from '../pointer.ts';
import type { SchemaPattern } from '../regex.ts';
import { objectShape, propertiesConform, type Shape, slotOf } from '../shape.ts';
import { child, report, type Validate } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

type Data = Record<string, unknown>;

/** A key named by `properties` or `required`. */
interface Slot {
  key: string;
  /** The `properties` subschema; null for a key only `required` names. */
  validate: Validate | null;
  /** `properties: { key: false }`. */
  forbidden: boolean;
  required: boolean;
}

interface Pattern {
  source: string;
  regex: SchemaPattern;
  validate: Validate;
}

/** Above this many keys a Map finds a key's slot faster than comparing strings one by one. */
const LINEAR_LOOKUP_MAX = 8;

const isPresent = (data: Data, key: string) => Object.hasOwn(data, key) && data[key] !== undefined;

/**
 * `properties`, `patternProperties`, `additionalProperties` and `required` in one pass
 * over the object's own keys: each key finds its slot, so known keys are read once and
 * without a lookup by a varying name, and `required` only counts. A key whose value is
 * `undefined` counts as absent. Without `patternProperties` the fast pass runs in
 * shape.ts, and the shape it runs on is returned, for the node's.
 */
export function compileProperties(scope: NodeScope, checks: Checks): Shape | undefined {
  const { read, info, sub, ctx } = scope;
  const known = read.object('properties') ?? {};
  const patternSchemas = read.object('patternProperties') ?? {};
  const required = info.dialect.validation ? [...new Set(read.strings('required') ?? [])] : [];
  const hasAdditional = read.has('additionalProperties');
  const knownKeys = Object.keys(known);
  if (
    knownKeys.length === 0 &&
    Object.keys(patternSchemas).length === 0 &&
    !hasAdditional &&
    required.length === 0
  ) {
    return undefined;
  }
  // Loops, not callbacks, while `sub` and `read` are in use: a callback naming them would
  // put them in the context the validation closures below keep, and with them the whole
  // compilation (see "memory" in bench/RESULTS.md).
  const slots: Slot[] = [];
  const children: (Shape | null)[] = [];
  for (const key of knownKeys) {
    const validate = sub(known[key], `properties/${escapeToken(key)}`);
    slots.push({ key, validate, forbidden: known[key] === false, required: false });
    children.push(ctx.shapeOf(known[key], validate));
  }
  for (const key of required) {
    const slot = slots.find((candidate) => candidate.key === key);
    if (slot !== undefined) {
      slot.required = true;
      continue;
    }
    slots.push({ key, validate: null, forbidden: false, required: true });
    children.push(null);
  }
  const patterns: Pattern[] = [];
  for (const source of Object.keys(patternSchemas)) {
    const at = `patternProperties/${escapeToken(source)}`;
    patterns.push({
      source,
      regex: read.regex(source, at),
      validate: sub(patternSchemas[source], at),
    });
  }
  const additional = hasAdditional ? read.schema.additionalProperties : undefined;
  const additionalValidate = hasAdditional ? sub(additional, 'additionalProperties') : null;
  // Rendered when first reported, not at compile time: most validators never report it.
  const allowed = once(() =>
    [
      ...(knownKeys.length > 0 ? [showList(knownKeys)] : []),
      ...(patterns.length > 0
        ? [`keys matching ${patterns.map((p) => `/${p.source}/`).join(', ')}`]
        : []),
    ].join(', or '),
  );
  const unexpected = (key: string) =>
    `unexpected property "${key}"; ${allowed() === '' ? 'no properties are allowed' : `allowed: ${allowed()}`}`;

  const keys = slots.map((slot) => slot.key);
  const byKey = keys.length > LINEAR_LOOKUP_MAX ? new Map(keys.map((key, i) => [key, i])) : null;
  const requiredCount = required.length;
  const patternCount = patterns.length;

  const general = propertiesValidator({
    slots,
    keys,
    byKey,
    patterns,
    required,
    additional,
    additionalValidate,
    unexpected,
  });
  if (patternCount > 0) {
    checks.object.push(general);
    return undefined;
  }

  const shape = objectShape(general, {
    keys,
    byKey,
    children,
    counts: slots.map((slot) => (slot.required ? 1 : 0)),
    requiredCount,
    closed: additional === false,
    additional: additionalValidate === null ? null : ctx.shapeOf(additional, additionalValidate),
  });
  checks.object.push((data, st) =>
    st.issues === null && st.annot === null
      ? propertiesConform(shape, data as Data, st)
      : general(data, st),
  );
  return shape;
}

/** What the validator of an object's keys works from, compiled by {@link compileProperties}. */
interface PropertiesPlan {
  slots: Slot[];
  keys: string[];
  byKey: Map<string, number> | null;
  patterns: Pattern[];
  required: string[];
  additional: unknown;
  additionalValidate: Validate | null;
  unexpected(key: string): string;
}

/**
 * The general pass over an object's own keys: each key's slot, the patterns it matches,
 * else `additionalProperties`; then the required keys it did not see. Takes the plan's
 * parts as locals, so the closure keeps only them (not the compilation).
 */
function propertiesValidator(plan: PropertiesPlan): Validate {
  const { slots, keys, byKey, patterns, required, additional, additionalValidate, unexpected } =
    plan;
  const requiredCount = required.length;
  const patternCount = patterns.length;
  const reportMissing = (data: Data, st: Parameters<Validate>[1]) => {
    for (const key of required) {
      if (!isPresent(data, key))
        report(st, 'required', `missing required property "${key}"`, undefined, key);
    }
  };

  return (data, st) => {
    const object = data as Data;
    let seenRequired = 0;
    let ok = true;
    for (const key in object) {
      const value = object[key];
      if (value === undefined) continue;
      const index = slotOf(keys, byKey, key);
      let matched = false;
      if (index >= 0) {
        const slot = slots[index];
        if (slot.required) seenRequired++;
        if (slot.validate !== null) {
          matched = true;
          if (st.annot !== null) st.annot.props.add(key);
          const valid = slot.forbidden
            ? report(st, 'properties', `unexpected property "${key}"`, value, key)
            : child(slot.validate, value, key, st);
          if (!valid) {
            if (st.issues === null) return false;
            ok = false;
          }
        }
      }
      for (let p = 0; p < patternCount; p++) {
        const pattern = patterns[p];
        if (!pattern.regex.test(key)) continue;
        matched = true;
        if (st.annot !== null) st.annot.props.add(key);
        if (!child(pattern.validate, value, key, st)) {
          if (st.issues === null) return false;
          ok = false;
        }
      }
      if (matched || additionalValidate === null) continue;
      const valid =
        additional === false
          ? report(st, 'additionalProperties', unexpected(key), value, key)
          : child(additionalValidate, value, key, st);
      if (!valid) {
        if (st.issues === null) return false;
        ok = false;
      }
    }
    if (seenRequired < requiredCount) {
      if (st.issues === null) return false;
      reportMissing(object, st);
      ok = false;
    }
    if (additionalValidate !== null && st.annot !== null) st.annot.allProps = true;
    return ok;
  };
}
