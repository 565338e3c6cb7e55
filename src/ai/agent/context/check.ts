import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import { AgentError } from '../agent-error.ts';
import { describe } from '../describe.ts';

/** Checks a strategy's options object (absent means `{}`) and refuses unknown keys. */
export function checkStrategyOptions<T extends object>(
  where: string,
  options: T | undefined,
  known: readonly (keyof T & string)[],
): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected an options object, received ${describe(options)}`,
    );
  }
  const unknown = unknownKeyMessage(where, options, known);
  if (unknown) throw new AgentError('INVALID_ARGUMENT', unknown);
  return options;
}

/** A count option: a non-negative integer, or `fallback` when absent. */
export function checkCount(where: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected a non-negative integer, received ${describe(value)}`,
    );
  }
  return value;
}
