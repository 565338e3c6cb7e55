/**
 * `fino run` in a real pseudo-terminal (tmux): the approval prompt and the suspension
 * question, answered by typing. Needs `npm run build` first (`npm test` does it) and tmux.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { fino, requireTmux, stopTmux } from './terminal.ts';

const fixture = join(import.meta.dirname, 'fixtures/approval.ts');
/** The tests' folders, removed after the file's tests (after tmux stops). */
const folders = tempDir('tty');

function folderWithVictim(): string {
  const dir = mkdtempSync(join(folders, 'test-'));
  writeFileSync(join(dir, 'victim.txt'), 'keep me');
  return dir;
}

describe('fino run on a terminal', { timeout: 60_000 }, () => {
  beforeAll(requireTmux);
  afterAll(stopTmux);

  it('shows the call, and leaves the file when the answer is n', async () => {
    const dir = folderWithVictim();
    const pane = fino(['run', fixture, 'remove_file', '--path', 'victim.txt'], dir);
    try {
      const prompt = await pane.waitFor('Run it? [y/N]');
      expect(prompt).toContain('fino: remove_file requires approval (risk: destructive)');
      expect(prompt).toContain('  tool: remove_file');
      expect(prompt).toContain('  arguments: {"path":"victim.txt"}');
      expect(prompt).toContain('  risk: destructive');
      pane.type('n');
      expect(await pane.waitFor('EXIT=')).toContain('EXIT=3');
      expect(existsSync(join(dir, 'victim.txt'))).toBe(true);
    } finally {
      pane.close();
    }
  });

  it('leaves the file and exits 130 on Ctrl-C at the prompt', async () => {
    const dir = folderWithVictim();
    const pane = fino(['run', fixture, 'remove_file', '--path', 'victim.txt'], dir);
    try {
      await pane.waitFor('Run it? [y/N]');
      pane.keys('C-c');
      const screen = await pane.waitFor('EXIT=');
      expect(screen).toContain('fino: interrupted');
      expect(screen).toContain('EXIT=130');
      expect(existsSync(join(dir, 'victim.txt'))).toBe(true);
    } finally {
      pane.close();
    }
  });

  it('deletes the file when the answer is y', async () => {
    const dir = folderWithVictim();
    const pane = fino(['run', fixture, 'remove_file', '--path', 'victim.txt'], dir);
    try {
      await pane.waitFor('Run it? [y/N]');
      pane.type('y');
      const screen = await pane.waitFor('EXIT=');
      expect(screen).toContain('removed victim.txt');
      expect(screen).toContain('EXIT=0');
      expect(existsSync(join(dir, 'victim.txt'))).toBe(false);
    } finally {
      pane.close();
    }
  });

  it('shows what a suspended tool asks and resumes it with the typed answer', async () => {
    const pane = fino(['run', fixture, 'ask_colour'], tmpdir());
    try {
      const question = await pane.waitFor('Answer (JSON, or text):');
      expect(question).toContain('fino: ask_colour waits for an answer: Which colour?');
      expect(question).toContain('  payload: {"choices":["red","blue"]}');
      pane.type('["teal"]');
      const screen = await pane.waitFor('EXIT=');
      expect(screen).toContain('colour: ["teal"]');
      expect(screen).toContain('EXIT=0');
    } finally {
      pane.close();
    }
  });
});
