import { describe, expect, it } from 'vitest';
import { type RetryPolicy, retryTransient, SqlFailure } from '../../../src/internal/sql/index.ts';

const transient = (error: unknown) => (error as { code?: string }).code === 'ECONNRESET';
const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

/** Retries an attempt that always fails with ECONNRESET; how many attempts it made, and the error. */
async function failingForever(policy: RetryPolicy) {
  let attempts = 0;
  const error = await retryTransient(
    async () => {
      attempts++;
      throw reset();
    },
    transient,
    policy,
    'the test database',
  ).catch((e: unknown) => e);
  return { attempts, error };
}

describe('retryTransient', () => {
  it('tries again after transient failures until one attempt succeeds', async () => {
    let attempts = 0;
    const result = await retryTransient(
      async () => {
        if (++attempts < 4) throw reset();
        return 'ok';
      },
      transient,
      { budgetMs: 10_000, firstDelayMs: 1 },
      'the test database',
    );
    expect(result).toBe('ok');
    expect(attempts).toBe(4);
  });

  it('passes any other error on at once, untouched', async () => {
    let attempts = 0;
    const other = new Error('syntax error');
    await expect(
      retryTransient(
        async () => {
          attempts++;
          throw other;
        },
        transient,
        { budgetMs: 10_000, firstDelayMs: 1 },
        'the test database',
      ),
    ).rejects.toBe(other);
    expect(attempts).toBe(1);
  });

  it('gives up once the budget is spent: UNAVAILABLE, naming the database, with the last failure as cause', async () => {
    const { attempts, error } = await failingForever({
      budgetMs: 50,
      firstDelayMs: 5,
      maxDelayMs: 10,
    });
    expect(error).toBeInstanceOf(SqlFailure);
    expect(error).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(
        /^the test database is unavailable: read ECONNRESET \(still failing after \d+ ms\)$/,
      ),
      cause: { code: 'ECONNRESET' },
    });
    expect(attempts).toBeGreaterThan(1);
  });

  it('with a budget of 0, fails at the first transient failure', async () => {
    const { attempts, error } = await failingForever({ budgetMs: 0 });
    expect(error).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'the test database is unavailable: read ECONNRESET',
    });
    expect(attempts).toBe(1);
  });
});
