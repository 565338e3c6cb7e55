/** The command-line tests' way to catch a `UsageError`: fails the test if `fn` throws anything else, or nothing. */
import { expect } from 'vitest';
import { UsageError } from '../../src/task/index.ts';

/** Runs `fn` and returns the `UsageError` it throws. */
export const usageError = (fn: () => unknown): UsageError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
};
