/**
 * Parses command-line arguments against a task's `CliSpec` into an input object.
 */
import { nearestFlag } from '../internal/known-keys.ts';
import { type CliOption, type CliSpec, flagOf, kebabCase } from './cli-spec.ts';
import { excerpt } from './error-text.ts';
import { UsageError } from './errors.ts';
import type { OutputMode } from './types.ts';

/** What a command line asked for. */
export interface ParsedArgv {
  /** Input assembled from options and positionals. */
  input: Record<string, unknown>;
  /** `'json'` when `--json` was given. */
  mode: OutputMode;
  /** True when `--help` or `-h` was given. */
  help: boolean;
}

const describeType = (option: CliOption): string => {
  if (option.choices) return `one of ${option.choices.join(', ')}`;
  if (option.type === 'json') return 'a JSON value';
  return `${option.type === 'integer' ? 'an' : 'a'} ${option.type} value`;
};

/** A received value as the error shows it: quoted, escaped, and cut to 100 characters. */
const received = (raw: string): string => JSON.stringify(excerpt(raw, 100));

function convert(flag: string, option: CliOption, raw: string): unknown {
  let value: unknown = raw;
  if (option.type === 'number' || option.type === 'integer') {
    value = raw.trim() === '' ? Number.NaN : Number(raw);
    const ok = Number.isFinite(value) && (option.type === 'number' || Number.isInteger(value));
    if (!ok)
      throw new UsageError(`${flag}: expected ${describeType(option)}, received ${received(raw)}`);
  } else if (option.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') {
      throw new UsageError(`${flag}: expected true or false, received ${received(raw)}`);
    }
    value = raw === 'true';
  } else if (option.type === 'json') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new UsageError(`${flag}: expected a JSON value, received ${received(raw)}`);
    }
  }
  if (option.choices && !option.choices.includes(value as string | number)) {
    throw new UsageError(`${flag}: expected ${describeType(option)}, received ${received(raw)}`);
  }
  return value;
}

/**
 * Parses `argv` (without the program and command names) against `spec`; options
 * override the properties of `base`. `acceptsJson` says whether errors list `--json`.
 */
export function parseArgv(
  argv: readonly string[],
  spec: CliSpec,
  base: Record<string, unknown> = {},
  acceptsJson = true,
): ParsedArgv {
  const options = spec.options ?? {};
  const flagged = Object.keys(options).filter((key) => !options[key].positionalOnly);
  const byFlag = new Map<string, string>();
  for (const key of flagged) {
    byFlag.set(flagOf(key), key);
    byFlag.set(`--${key}`, key);
    const short = options[key].short;
    if (short) byFlag.set(`-${short}`, key);
  }
  const known = flagged.map(flagOf).concat(acceptsJson ? ['--json', '--help'] : ['--help']);
  const input: Record<string, unknown> = Object.assign(Object.create(null), base);
  const positionals = [...(spec.positionals ?? [])];
  const result: ParsedArgv = { input, mode: 'text', help: false };
  const passed: string[] = [];
  /** Whether an argument this spec does not define goes to `passthrough` rather than failing. */
  const passing = () => spec.passthrough !== undefined && positionals.length === 0;

  const assign = (key: string, value: unknown): void => {
    if (options[key].multiple) {
      const list = (input[key] as unknown[] | undefined) ?? [];
      list.push(value);
      input[key] = list;
    } else {
      input[key] = value;
    }
  };
  const positional = (raw: string): void => {
    const key = positionals.shift();
    if (key === undefined) throw new UsageError(`unexpected argument ${received(raw)}`);
    const option = options[key] ?? { type: 'string' };
    input[key] = convert(`<${kebabCase(key)}>`, option, raw);
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      const rest = argv.slice(i + 1);
      while (rest.length > 0 && positionals.length > 0) positional(rest.shift() as string);
      if (spec.passthrough !== undefined) passed.push('--', ...rest);
      else for (const raw of rest) positional(raw);
      break;
    }
    if (passing() && (arg === '--help' || arg === '-h' || arg === '--json')) {
      passed.push(arg);
      continue;
    }
    if (arg === '--help' || arg === '-h') {
      result.help = true;
      continue;
    }
    if (arg === '--json') {
      result.mode = 'json';
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (passing()) passed.push(arg);
      else positional(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const negated = name.startsWith('--no-') ? byFlag.get(`--${name.slice(5)}`) : undefined;
    if (negated !== undefined && options[negated].type === 'boolean' && eq === -1) {
      assign(negated, false);
      continue;
    }
    const key = byFlag.get(name);
    if (key === undefined && passing()) {
      passed.push(arg);
      continue;
    }
    if (key === undefined) {
      // A value that starts with "-" (a session token can) reads as an option unless "--" ends the options.
      const hint =
        positionals.length > 0 && !arg.startsWith('--')
          ? `; if ${excerpt(arg, 100)} is the <${kebabCase(positionals[0])}> argument, put -- before it`
          : '';
      const closest = nearestFlag(name, known);
      const suggestion = closest === undefined ? '' : ` did you mean ${closest}?`;
      throw new UsageError(
        `unknown option ${excerpt(name, 100)};${suggestion} expected one of ${known.join(', ')}${hint}`,
      );
    }
    const option = options[key];
    const flag = flagOf(key);
    if (eq !== -1) {
      assign(key, convert(flag, option, arg.slice(eq + 1)));
    } else if (option.type === 'boolean') {
      assign(key, true);
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw new UsageError(`${flag} is missing its value: expected ${describeType(option)}`);
      }
      assign(key, convert(flag, option, next));
      i++;
    }
  }
  if (spec.passthrough !== undefined) input[spec.passthrough] = passed;
  if (!result.help) checkRequired(spec, input);
  // CreateDataProperty semantics: a `__proto__` key stays an own property.
  result.input = Object.fromEntries(Object.entries(input));
  return result;
}

/** Throws for the first required positional, then option, that `input` lacks. */
function checkRequired(spec: CliSpec, input: Record<string, unknown>): void {
  const options = spec.options ?? {};
  for (const key of spec.positionals ?? []) {
    if (options[key]?.required && input[key] === undefined) {
      throw new UsageError(`missing <${kebabCase(key)}>`);
    }
  }
  for (const key of Object.keys(options)) {
    if (options[key].required && input[key] === undefined) {
      throw new UsageError(
        `missing required option ${flagOf(key)} (${describeType(options[key])})`,
      );
    }
  }
}
