import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { progressDisplay } from '../../src/cli/progress-display.ts';

const fixtures = join(import.meta.dirname, 'fixtures');

const captured = (isTTY: boolean) => {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { stream, text: () => text };
};

describe('fino run shows progress', () => {
  it('prints plain progress lines on a standard error that is not a terminal', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        join(fixtures, 'run-cli.ts'),
        'run',
        join(fixtures, 'progress.ts'),
        '--files',
        '4',
      ],
      { cwd: fixtures },
    );
    expect(stdout).toBe('copied 4 files\n');
    expect(stderr.split('\n')).toEqual([
      'fino: progress 25% copied file 1',
      'fino: progress 50% copied file 2',
      'fino: progress 75% copied file 3',
      'fino: progress 100% copied file 4',
      '',
    ]);
  });
});

describe('progressDisplay', () => {
  it('redraws one bar in place on a terminal and clears it at the end', () => {
    const out = captured(true);
    const display = progressDisplay(out.stream);
    display.update({ progress: 1, total: 4, message: 'a\u001b[2Jb' });
    display.update({ progress: 4, total: 4 });
    display.end();
    expect(out.text()).toBe(
      '\r[#####---------------] 25% (1/4) a\\x1b[2Jb\u001b[K' +
        '\r[####################] 100% (4/4)\u001b[K' +
        '\r\u001b[K',
    );
  });

  it('writes a line only when the whole percent or the message changes', () => {
    const out = captured(false);
    const display = progressDisplay(out.stream);
    for (let done = 1; done <= 1000; done++) display.update({ progress: done, total: 1000 });
    display.update({ progress: 7 });
    display.end();
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(102); // 0% … 100%, then the update without a total;
    expect(lines.at(-2)).toBe('fino: progress 100%');
    expect(lines.at(-1)).toBe('fino: progress 7');
  });
});
