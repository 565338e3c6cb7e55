import { showList } from '../describe.ts';
import { escapeToken } from '../pointer.ts';
import type { SchemaPattern } from '../regex.ts';
import { child, report, type Validate } from '../state.ts';
import { bareTypes, hasType } from './inline-type-checks.ts';
import type { Checks, NodeScope } from './scope.ts';
import type { JsonType } from './type.ts';

type Data = Record<string, unknown>;

/** A key named by `properties` or `required`. */
interface Slot {
  key: string;
  /** The `properties` subschema; null for a key only `required` names. */
  validate: Validate | null;
  /** `properties: { key: false }`. */
  forbidden: boolean;
  /** The type, when the subschema only tests one (tested inline in the fast pass). */
  bareType: JsonType | undefined;
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
 * `undefined` counts as absent.
 */
export function compileProperties(scope: NodeScope, checks: Checks): void {
  const { read, info, sub } = scope;
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
    return;
  }
  const slots: Slot[] = knownKeys.map((key) => ({
    key,
    validate: sub(known[key], `properties/${escapeToken(key)}`),
    forbidden: known[key] === false,
    required: false,
    bareType: undefined,
  }));
  for (const slot of slots)
    if (slot.validate !== null) slot.bareType = bareTypes.get(slot.validate);
  for (const key of required) {
    const slot = slots.find((candidate) => candidate.key === key);
    if (slot === undefined)
      slots.push({ key, validate: null, forbidden: false, required: true, bareType: undefined });
    else slot.required = true;
  }
  const patterns: Pattern[] = Object.keys(patternSchemas).map((source) => ({
    source,
    regex: read.regex(source, `patternProperties/${escapeToken(source)}`),
    validate: sub(patternSchemas[source], `patternProperties/${escapeToken(source)}`),
  }));
  const additional = hasAdditional ? read.schema.additionalProperties : undefined;
  const additionalValidate = hasAdditional ? sub(additional, 'additionalProperties') : null;
  const allowed = [
    ...(knownKeys.length > 0 ? [showList(knownKeys)] : []),
    ...(patterns.length > 0
      ? [`keys matching ${patterns.map((p) => `/${p.source}/`).join(', ')}`]
      : []),
  ].join(', or ');
  const unexpected = (key: string) =>
    `unexpected property "${key}"; ${allowed === '' ? 'no properties are allowed' : `allowed: ${allowed}`}`;

  const keys = slots.map((slot) => slot.key);
  const count = keys.length;
  const byKey = count > LINEAR_LOOKUP_MAX ? new Map(keys.map((key, i) => [key, i])) : null;
  const requiredCount = required.length;
  const patternCount = patterns.length;

  const reportMissing = (data: Data, st: Parameters<Validate>[1]) => {
    for (const key of required) {
      if (!isPresent(data, key))
        report(st, 'required', `missing required property "${key}"`, undefined, key);
    }
  };

  const general: Validate = (data, st) => {
    const object = data as Data;
    let seenRequired = 0;
    let ok = true;
    for (const key in object) {
      const value = object[key];
      if (value === undefined) continue;
      let index = -1;
      if (byKey === null) {
        for (let i = 0; i < count; i++) {
          if (keys[i] === key) {
            index = i;
            break;
          }
        }
      } else {
        index = byKey.get(key) ?? -1;
      }
      let matched = false;
      if (index >= 0) {
        const slot = slots[index];
        if (slot.required) seenRequired++;
        if (slot.validate !== null) {
          matched = true;
          if (st.annot !== null) st.annot.props.add(key);
          const valid = slot.forbidden
            ? report(st, 'properties', `unexpected property "${key}"`, value, key)
            : slot.bareType !== undefined && st.issues === null && st.annot === null
              ? hasType(slot.bareType, value)
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
  if (patternCount > 0) {
    checks.object.push(general);
    return;
  }

  // The common shape (no `patternProperties`) in the fast pass — no issues collected, no
  // annotations — walks the keys the same way with nothing else: no pattern loop, no mode
  // checks per key, `additionalProperties: false` a return.
  const closed = additional === false;
  checks.object.push((data, st) => {
    if (st.issues !== null || st.annot !== null) return general(data, st);
    const object = data as Data;
    let seenRequired = 0;
    for (const key in object) {
      const value = object[key];
      if (value === undefined) continue;
      let index = -1;
      if (byKey === null) {
        for (let i = 0; i < count; i++) {
          if (keys[i] === key) {
            index = i;
            break;
          }
        }
      } else {
        index = byKey.get(key) ?? -1;
      }
      const slot = index >= 0 ? slots[index] : null;
      if (slot?.required) seenRequired++;
      const validate = slot === null ? null : slot.validate;
      if (validate !== null) {
        const type = (slot as Slot).bareType;
        if (type !== undefined ? !hasType(type, value) : !validate(value, st)) return false;
      } else if (additionalValidate !== null) {
        if (closed || !additionalValidate(value, st)) return false;
      }
    }
    return seenRequired >= requiredCount;
  });
}
