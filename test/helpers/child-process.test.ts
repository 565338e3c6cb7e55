import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeChild, PROCESS_TIMEOUT_MS } from './child-process.ts';

const ECHO = join(import.meta.dirname, 'fixtures', 'echo-child.ts');

describe('nodeChild', () => {
  it(
    'answers with the last JSON line the child printed, and passes the command and env',
    async () => {
      const child = nodeChild(ECHO, { op: 'answer', say: 'hi' }, { FINO_TEST_ECHO: 'yes' });
      expect(await child.done).toEqual({ said: 'hi', env: 'yes' });
      expect(child.process.exitCode).toBe(0);
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'resolves ready on its ready line, and done with the signal that killed it',
    async () => {
      const child = nodeChild(ECHO, { op: 'wait' });
      await child.ready;
      child.process.kill('SIGKILL');
      expect(await child.done).toEqual({ killed: 'SIGKILL' });
    },
    PROCESS_TIMEOUT_MS,
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
    PROCESS_TIMEOUT_MS,
  );
});
