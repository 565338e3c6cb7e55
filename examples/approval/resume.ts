/**
 * Step 2 of the approval example, in another process: read the saved run state,
 * approve every pending call (or reject them with `--reject "<reason>"`), and finish the
 * run.
 *
 *     npx tsx examples/approval/resume.ts .fino/approval-state.json
 *     npx tsx examples/approval/resume.ts .fino/approval-state.json --reject "too much"
 */

import type { Decisions, RunState } from 'fino:ai/agent';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { billingAgent } from './billing-agent.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { reject: { type: 'string' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: resume.ts <state file> [--reject <reason>]');
  process.exit(2);
}
const state: RunState = JSON.parse(readFileSync(file, 'utf8'));
const decisions: Decisions = {};
for (const call of state.turn?.pending ?? []) {
  decisions[call.toolCallId] =
    values.reject === undefined ? { approve: true } : { reject: values.reject };
  console.log(`${values.reject === undefined ? 'approving' : 'rejecting'} ${call.toolName}`);
}
const result = await billingAgent().resume(state, decisions);
if (result.status === 'suspended') {
  console.log(`still waiting for: ${result.pending.map((p) => p.toolName).join(', ')}`);
} else {
  console.log(result.text);
}
