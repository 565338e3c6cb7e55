import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeChild } from './child-process.ts';

const ECHO = join(import.meta.dirname, 'fixtures', 'echo-child.ts');
/** Child processes start slowly on a loaded machine: generous, never a race against the clock. */
const TIMEOUT = 60_000;

describe('nodeChild', () => {
  it(
    'answers with the last JSON line the child printed, and passes the command and env',
    async () => {
      const child = nodeChild(ECHO, { op: 'answer', say: 'hi' }, { FINO_TEST_ECHO: 'yes' });
      expect(await child.done).toEqual({ said: 'hi', env: 'yes' });
      expect(child.process.exitCode).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'resolves ready on its ready line, and done with the signal that killed it',
    async () => {
      const child = nodeChild(ECHO, { op: 'wait' });
      await child.ready;
      child.process.kill('SIGKILL');
      expect(await child.done).toEqual({ killed: 'SIGKILL' });
    },
    TIMEOUT,
  );

  it(
    'rejects when the child exits without an answer, with its exit code and output',
    async () => {
      const child = nodeChild(ECHO, { op: 'silent' });
      await expect(child.done).rejects.toThrow(
        /echo-child\.ts exited 3 without an answer: nothing to say/,
      );
      expect(child.output().stderr).toContain('nothing to say');
    },
    TIMEOUT,
  );
});
