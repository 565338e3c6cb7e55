/**
 * `fileTokenStore()` under attack and contention: a symlink planted where it writes, two
 * stores and two processes on one file, a lock holder killed mid-write.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileTokenStore } from '../../../../src/ai/mcp/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../../helpers/child-process.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';

const dir = tempDir('file-token-store');
const CHILD = fileURLToPath(new URL('./fixtures/token-store-child.ts', import.meta.url));
const record = (token: string) => ({ tokens: { access_token: token, token_type: 'Bearer' } });

describe('fileTokenStore()', () => {
  it('never writes through a symlink planted at a temporary name', async () => {
    const path = join(dir, 'planted.json');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, `${path}.${process.pid}.tmp`); // the name older versions wrote to
    await fileTokenStore(path).save('https://a/mcp', record('t'));
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(await fileTokenStore(path).load('https://a/mcp')).toEqual(record('t'));
  });

  it('keeps every record when two stores on one file save at once', async () => {
    const path = join(dir, 'two-stores.json');
    const [a, b] = [fileTokenStore(path), fileTokenStore(path)];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        a.save(`https://a/${i}`, record(`a${i}`)),
        b.save(`https://b/${i}`, record(`b${i}`)),
      ]).flat(),
    );
    const all = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(all)).toHaveLength(40);
    expect(all['https://b/19']).toEqual(record('b19'));
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it(
    'keeps every record when two processes save at once',
    async () => {
      const path = join(dir, 'two-processes.json');
      const child = nodeChild(CHILD, { op: 'save', path, n: 30 });
      let childDone = false;
      const answer = child.done.finally(() => {
        childDone = true;
      });
      const mine = fileTokenStore(path);
      let saved = 0;
      while (!childDone) await mine.save(`https://parent/${saved++}`, record('p'));
      expect(await answer).toEqual({ saved: 30 });
      expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toHaveLength(saved + 30);
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'takes over the lock of a process killed while holding it',
    async () => {
      const path = join(dir, 'killed-holder.json');
      const holder = nodeChild(CHILD, { op: 'hold', path });
      await holder.ready;
      expect(existsSync(`${path}.lock`)).toBe(true);
      holder.process.kill('SIGKILL');
      expect(await holder.done).toEqual({ killed: 'SIGKILL' });
      const started = Date.now();
      await fileTokenStore(path).save('https://a/mcp', record('after'));
      expect(Date.now() - started).toBeLessThan(5_000); // the holder's death, not the lock's age
      expect(await fileTokenStore(path).load('https://a/mcp')).toEqual(record('after'));
    },
    PROCESS_TIMEOUT_MS,
  );
});
