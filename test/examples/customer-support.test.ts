/**
 * examples/customer-support end to end across real process restarts: the first process
 * hands off to refunds and stops at the refund's approval; a second one approves, the
 * refund is paid and triage answers; a third sends the thread's next message.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const dir = tempDir('customer-support');
const db = join(dir, 'desk.db');
const TIMEOUT_MS = 120_000; // three processes on a loaded machine

const script = (name: string, ...args: string[]) =>
  exec(
    process.execPath,
    [
      '--import',
      join(root, 'node_modules/tsx/dist/loader.mjs'),
      join(root, 'examples/customer-support', name),
      ...args,
      '--db',
      db,
    ],
    { cwd: dir, env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') } },
  );

describe('examples/customer-support', () => {
  it(
    'triage → refunds (approval, across a restart) → back to triage, in one thread',
    async () => {
      // gpt-4.1 is down (503) in the first process: both steps fall over to the second provider.
      const asked = await script(
        'chat.ts',
        'I want a refund for order o-17',
        '--thread',
        'c1',
        '--outage',
      );
      expect(asked.stdout).toMatch(/run \S+: suspended \(refunds\)/);
      expect(asked.stdout).toContain(
        'models: anthropic:claude-sonnet-4-5, anthropic:claude-sonnet-4-5',
      );
      expect(asked.stdout).toContain('pending approval: refund({"orderId":"o-17","amount":89})');
      const token = /approve\.ts (\S+)/.exec(asked.stdout)?.[1];
      expect(token).toBeTruthy();

      const approved = await script('approve.ts', token!);
      expect(approved.stdout).toMatch(/run \S+: done \(triage\)/);
      // gpt-4.1 is back in the second process: the steps it answered say so.
      expect(approved.stdout).toContain(
        'models: anthropic:claude-sonnet-4-5, anthropic:claude-sonnet-4-5, openai:gpt-4.1, openai:gpt-4.1',
      );
      expect(approved.stdout).toContain(
        'triage: Your refund is on its way. Anything else I can do?',
      );

      const next = await script('chat.ts', 'No, thanks', '--thread', 'c1');
      expect(next.stdout).toContain('triage: Happy to help. Have a nice day!');

      // An answer with a card number trips the PII output guardrail: the customer never sees it.
      const card = await script('chat.ts', 'Which card did I pay with?', '--thread', 'c1');
      expect(card.stdout).toMatch(/run \S+: error/);
      expect(card.stdout).toContain('stopped: GUARDRAIL_TRIPPED');
      expect(card.stdout).not.toContain('4111');
    },
    TIMEOUT_MS,
  );
});
