/**
 * Asks the operator one question on the terminal.
 */
import { createInterface } from 'node:readline';
import type { CommandIo } from './command.ts';

/**
 * Writes `question` on stderr and reads one line from stdin. Resolves to the line, to
 * `''` when stdin ends, or to `null` when the operator presses Ctrl-C.
 *
 * @example
 * ```ts
 * import { processIo } from './main.ts';
 * import { askLine } from './prompt.ts';
 *
 * const answer = await askLine(processIo(), 'Run it? [y/N] ');
 * ```
 */
export function askLine(io: CommandIo, question: string): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, output: io.stderr });
    let settled = false;
    const finish = (answer: string | null) => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(answer);
    };
    rl.on('SIGINT', () => {
      io.stderr.write('\n');
      finish(null);
    });
    rl.on('close', () => finish(''));
    rl.question(question, finish);
  });
}
