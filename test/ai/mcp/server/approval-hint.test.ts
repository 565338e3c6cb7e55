/**
 * The approval hint a waiting MCP task carries names a command a person pastes into a
 * shell: its database path and task id must reach `fino` intact (decision 163).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  taskApprovalHint,
  UNNAMED_TASK_STORE,
} from '../../../../src/ai/mcp/server/approval-hint.ts';

/** The arguments `sh` passes to the command quoted in `hint`, `fino` replaced by printf. */
function pastedArgv(hint: string): string[] {
  const command = /"(fino sessions approve [^"]*)"/.exec(hint)?.[1];
  if (command === undefined) throw new Error(`no command in: ${hint}`);
  const line = command.replace(/^fino /, `printf '%s\\0' `);
  return execFileSync('sh', ['-c', line]).toString('utf8').split('\0').slice(0, -1);
}

describe('taskApprovalHint', () => {
  it('prints plain words as they are', () => {
    expect(taskApprovalHint('task_01', '.fino/sessions.db')).toContain(
      '"fino sessions approve --db .fino/sessions.db task_01 call"',
    );
  });

  it('shows the placeholder of a store without a path as it is, for a person to replace', () => {
    expect(taskApprovalHint('task_01', UNNAMED_TASK_STORE)).toContain(
      `"fino sessions approve --db ${UNNAMED_TASK_STORE} task_01 call"`,
    );
  });

  it.each([
    ['a path with spaces and a $', '/home/me/my notes/$work.db'],
    ['a path with a quote', "/srv/o'brien/sessions.db"],
  ])('quotes %s so the pasted command gets it whole', (_, db) => {
    expect(pastedArgv(taskApprovalHint('task_01', db))).toEqual([
      'sessions',
      'approve',
      '--db',
      db,
      'task_01',
      'call',
    ]);
  });
});
