/**
 * Command-line options of a task: declared in `cli`, or derived from the input schema.
 */
import type { JsonSchemaObject } from './content.ts';

/** The type of a command-line value; `json` values are parsed as JSON text. */
export type CliValueType = 'string' | 'number' | 'integer' | 'boolean' | 'json';

/** One command-line option, filling the input property of the same key. */
export interface CliOption {
  type: CliValueType;
  /** Help text. */
  description?: string;
  required?: boolean;
  /** Repeatable: each occurrence adds one item to an array. */
  multiple?: boolean;
  /** The allowed values. */
  choices?: readonly (string | number)[];
  /** A one-letter alias, used as `-x`. */
  short?: string;
  /**
   * Filled only by a positional argument (or by `passthrough`): no `--flag`. Options
   * derived for the `positionals` of a `cli` without `options` are marked so.
   */
  positionalOnly?: boolean;
  /** The value used when the option is absent, shown in help (the schema's `default`). */
  default?: unknown;
}

/**
 * The command-line surface of a task. Without `options`, the options are derived from
 * the input schema, and `positionals` and `passthrough` name schema properties that are
 * arguments rather than flags.
 */
export interface CliSpec {
  /**
   * Options by input property name; the flag is the name in kebab case (`maxItems` →
   * `--max-items`). When given, it replaces the options derived from the schema.
   */
  options?: Record<string, CliOption>;
  /** Input properties filled, in order, by positional arguments. */
  positionals?: readonly string[];
  /**
   * An input property that receives, as an array of strings in their order, every
   * argument after the positionals that this spec does not define: unknown options with
   * whatever follows them, further positionals, `--help`, `-h` and `--json`, and `--`
   * with everything after it. For a command that hands them to another parser, as
   * `fino run <file>` hands a tool's flags to the tool. Always set, `[]` when none.
   */
  passthrough?: string;
}

/** `maxItems` → `max-items`. */
export const kebabCase = (name: string): string =>
  name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^-/, '');

/** The flag of an input property: `--` and its kebab-case name. */
export const flagOf = (key: string): string => `--${kebabCase(key)}`;

/** How errors name an input property: `<name>` when it has no flag, else its flag. */
export const argumentOf = (spec: CliSpec, key: string): string =>
  spec.options?.[key]?.positionalOnly ? `<${kebabCase(key)}>` : flagOf(key);

const scalarType = (schema: JsonSchemaObject): CliValueType => {
  const type = Array.isArray(schema.type)
    ? schema.type.find((t) => t !== 'null')
    : (schema.type as string | undefined);
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') {
    return type;
  }
  if (type === undefined && Array.isArray(schema.enum)) {
    return schema.enum.every((e) => typeof e === 'number') ? 'number' : 'string';
  }
  if (type === undefined && typeof schema.const === 'string') return 'string';
  return 'json';
};

const choicesOf = (schema: JsonSchemaObject): (string | number)[] | undefined => {
  const values = Array.isArray(schema.enum) ? schema.enum : undefined;
  return values?.filter(
    (e): e is string | number => typeof e === 'string' || typeof e === 'number',
  );
};

const isObject = (value: unknown): value is JsonSchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The command-line surface of a task: `spec` as given when it has `options`; otherwise
 * options derived from an object JSON Schema's properties, with `spec`'s `positionals`
 * and `passthrough` (which get no flag) applied.
 */
export function deriveCliSpec(schema: JsonSchemaObject, spec: CliSpec = {}): CliSpec {
  if (spec.options) return spec;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const positionals = new Set(spec.positionals ?? []);
  const options: Record<string, CliOption> = {};
  for (const key of Object.keys(properties)) {
    const property = properties[key];
    if (!isObject(property)) continue;
    const isArray = property.type === 'array' && isObject(property.items);
    const valueSchema = isArray ? (property.items as JsonSchemaObject) : property;
    const option: CliOption = { type: scalarType(valueSchema) };
    if (typeof property.description === 'string') option.description = property.description;
    if (required.has(key)) option.required = true;
    if (isArray) option.multiple = true;
    const choices = choicesOf(valueSchema);
    if (choices) option.choices = choices;
    if (property.default !== undefined) option.default = property.default;
    if (positionals.has(key) || key === spec.passthrough) option.positionalOnly = true;
    options[key] = option;
  }
  return { ...spec, options };
}
