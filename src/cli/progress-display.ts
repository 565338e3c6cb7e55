/**
 * A running task's `ctx.progress()` on the CLI's standard error: a bar redrawn in place
 * on a terminal, plain lines otherwise (one per whole percent or new message, so a log
 * stays short). Decision 094.
 */
import type { Progress } from '../task/index.ts';
import { escapeText } from './escape-text.ts';

const BAR_WIDTH = 20;

/** Where progress goes; `end()` leaves the line clean for what follows. */
export interface ProgressDisplay {
  update(progress: Progress): void;
  end(): void;
}

/** A display on `stream`: a bar when it is a terminal, lines otherwise. */
export function progressDisplay(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
): ProgressDisplay {
  const terminal = stream.isTTY === true;
  let drawn = false;
  let lastLine: string | undefined;
  return {
    update(progress) {
      if (terminal) {
        stream.write(`\r${bar(progress)} ${describe(progress, true)}\u001b[K`);
        drawn = true;
        return;
      }
      const line = `fino: progress ${describe(progress, false)}`;
      if (line === lastLine) return;
      lastLine = line;
      stream.write(`${line}\n`);
    },
    end() {
      if (drawn) stream.write('\r\u001b[K');
      drawn = false;
    },
  };
}

function bar({ progress, total }: Progress): string {
  if (total === undefined) return '[…]';
  const filled = Math.round(Math.min(progress / total, 1) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
}

/** `42% (21/50) copying a.txt`, or `21 copying a.txt` without a total. */
function describe({ progress, total, message }: Progress, terminal: boolean): string {
  const amount =
    total === undefined
      ? String(progress)
      : `${Math.floor(Math.min(progress / total, 1) * 100)}%${terminal ? ` (${progress}/${total})` : ''}`;
  if (message === undefined || message === '') return amount;
  // One line, and no escape sequences from the tool on a terminal.
  return `${amount} ${escapeText(message.replaceAll(/\s+/g, ' '))}`;
}
