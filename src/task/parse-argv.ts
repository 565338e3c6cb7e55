/**
 * Parses command-line arguments against a task's `CliSpec` into an input object.
 */
import { type CliOption, type CliSpec, flagOf, kebabCase } from './cli-spec.ts';
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

function convert(flag: string, option: CliOption, raw: string): unknown {
  let value: unknown = raw;
  if (option.type === 'number' || option.type === 'integer') {
    value = raw.trim() === '' ? Number.NaN : Number(raw);
    const ok = Number.isFinite(value) && (option.type === 'number' || Number.isInteger(value));
    if (!ok) throw new UsageError(`${flag}: expected ${describeType(option)}, received "${raw}"`);
  } else if (option.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') {
      throw new UsageError(`${flag}: expected true or false, received "${raw}"`);
    }
    value = raw === 'true';
  } else if (option.type === 'json') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new UsageError(`${flag}: expected a JSON value, received "${raw}"`);
    }
  }
  if (option.choices && !option.choices.includes(value as string | number)) {
    throw new UsageError(
      `${flag}: expected one of ${option.choices.join(', ')}, received "${raw}"`,
    );
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
  const byFlag = new Map<string, string>();
  for (const key of Object.keys(options)) {
    byFlag.set(flagOf(key), key);
    byFlag.set(`--${key}`, key);
    const short = options[key].short;
    if (short) byFlag.set(`-${short}`, key);
  }
  const known = Object.keys(options)
    .map(flagOf)
    .concat(acceptsJson ? ['--json', '--help'] : ['--help']);
  const input: Record<string, unknown> = Object.assign(Object.create(null), base);
  const positionals = [...(spec.positionals ?? [])];
  const result: ParsedArgv = { input, mode: 'text', help: false };

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
    if (key === undefined) throw new UsageError(`unexpected argument "${raw}"`);
    const option = options[key] ?? { type: 'string' };
    input[key] = convert(`<${kebabCase(key)}>`, option, raw);
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      for (const raw of argv.slice(i + 1)) positional(raw);
      break;
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
      positional(arg);
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
    if (key === undefined) {
      throw new UsageError(`unknown option ${name}; expected one of ${known.join(', ')}`);
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
  if (!result.help) {
    for (const key of Object.keys(options)) {
      if (options[key].required && input[key] === undefined) {
        throw new UsageError(
          `missing required option ${flagOf(key)} (${describeType(options[key])})`,
        );
      }
    }
  }
  // CreateDataProperty semantics: a `__proto__` key stays an own property.
  result.input = Object.fromEntries(Object.entries(input));
  return result;
}
