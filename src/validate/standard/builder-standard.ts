import { type CompiledValidator, compile } from '../compile.ts';
import type { JsonSchemaObject } from '../json-schema.ts';
import type { Emitter } from '../v/index.ts';
import { parsePath } from './parse-path.ts';
import { toDraft07 } from './to-draft-07.ts';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from './types.ts';

const DIALECTS: Record<string, string> = {
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

const validators = new WeakMap<Emitter, CompiledValidator<unknown>>();

/** The builder's compiled validator, compiled on first use (builders are immutable). */
function validatorOf(builder: Emitter): CompiledValidator<unknown> {
  let validator = validators.get(builder);
  if (validator === undefined) {
    validator = compile(builder as never) as CompiledValidator<unknown>;
    validators.set(builder, validator);
  }
  return validator;
}

/** Renders a builder's schema for a Standard JSON Schema target, with `$schema` set. */
function jsonSchemaFor(builder: Emitter & { toJSON(): JsonSchemaObject }) {
  return ({ target }: StandardJSONSchemaV1.Options): Record<string, unknown> => {
    const dialect = DIALECTS[target];
    if (dialect === undefined) {
      throw new TypeError(
        `fino builders render JSON Schema for "draft-2020-12" and "draft-07", not "${String(target)}"`,
      );
    }
    const schema = builder.toJSON();
    return { $schema: dialect, ...(target === 'draft-07' ? toDraft07(schema) : schema) };
  };
}

const props = new WeakMap<object, unknown>();

/**
 * The `~standard` props of a builder: Standard Schema v1 validation through fino's compiled
 * validator (synchronous), and Standard JSON Schema v1 conversion. Created once per builder.
 */
export function builderStandardProps<In, Out>(
  builder: Emitter & { toJSON(): JsonSchemaObject },
): StandardSchemaV1.Props<In, Out> & StandardJSONSchemaV1.Props<In, Out> {
  const cached = props.get(builder);
  if (cached !== undefined) return cached as never;
  const jsonSchema = jsonSchemaFor(builder);
  const created = {
    version: 1 as const,
    vendor: 'fino',
    validate: (value: unknown): StandardSchemaV1.Result<Out> => {
      const result = validatorOf(builder).safeParse(value);
      if (result.success) return { value: result.value as Out };
      return {
        issues: result.issues.map((issue) => ({
          message: issue.message,
          path: parsePath(issue.path),
        })),
      };
    },
    jsonSchema: { input: jsonSchema, output: jsonSchema },
  };
  props.set(builder, created);
  return created;
}
