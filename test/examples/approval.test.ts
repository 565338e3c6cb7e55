import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const dir = tempDir('approval');

/** Runs one of the example's scripts in its own Node.js process, as a user would. */
const script = (name: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', join(root, 'examples/approval', name), ...args], {
    cwd: root,
  });

describe('examples/approval', () => {
  it('suspends in one process and finishes in another, after an approval or a rejection', async () => {
    const file = join(dir, 'state.json');
    const first = await script('start.ts', file);
    expect(first.stdout).toContain(
      'pending approval: send_invoice({"customerId":"c-42","amount":1200})',
    );
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(state.version).toBe(1);
    expect(state.turn.pending[0].toolCallId).toBe('call_invoice');

    const [approved, rejected] = await Promise.all([
      script('resume.ts', file),
      script('resume.ts', file, '--reject', 'amount too high'),
    ]);
    expect(approved.stdout).toContain('approving send_invoice');
    expect(approved.stdout).toContain(
      `Invoice for 1200 EUR sent to c-42 (idempotency key ${state.runId}:call_invoice)`,
    );
    expect(approved.stdout).toContain('Customer c-42: ACME Corp');
    expect(rejected.stdout).toContain(
      'failed: Tool call "send_invoice" was rejected: amount too high',
    );
    expect(rejected.stdout).not.toContain('Invoice for');
  }, 90_000); // three Node.js processes compiling TypeScript: slow on a loaded machine
});
