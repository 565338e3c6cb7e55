/**
 * A run's thread as `fino sessions show` prints it: its length, its runs' usage, its
 * summary, and its newest messages, newest last, one line each, long ones folded.
 */
import { describeMessage, type RunThread } from '../../ai/session/index.ts';

/** How many of the thread's newest messages `show` prints. */
export const SHOWN_THREAD_MESSAGES = 20;
/** A message longer than this (in characters, on one line) is cut, with what was left out counted. */
const LINE_CHARS = 200;

const fold = (text: string): string => {
  const line = text.replaceAll(/\s+/g, ' ').trim();
  return line.length <= LINE_CHARS
    ? line
    : `${line.slice(0, LINE_CHARS)}… (${(line.length - LINE_CHARS).toLocaleString('en')} more characters)`;
};

/** The lines of `thread` under a run (or why it could not be read). */
export function threadLines(thread: RunThread): string[] {
  if ('error' in thread) return [`  thread ${thread.threadId}: cannot be read: ${thread.error}`];
  const shown = thread.messages.length;
  const { usage, summary } = thread;
  const lines = [
    `  thread ${thread.threadId}: ${thread.length} messages${shown < thread.length ? `, the last ${shown} shown` : ''}; its runs' tokens ${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.totalTokens} total${thread.activeRunId ? `; active run ${thread.activeRunId}` : ''}`,
  ];
  if (summary) lines.push(`    summary of the first ${summary.through}: ${fold(summary.text)}`);
  for (const { position, message } of thread.messages) {
    const { role, text } = describeMessage(message);
    lines.push(`    #${position} ${role}: ${fold(text)}`);
  }
  return lines;
}
