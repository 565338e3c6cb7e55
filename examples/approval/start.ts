/**
 * Step 1 of the approval example: run the billing agent until it needs an approval,
 * print the pending call, and save the run state to a JSON file.
 *
 *     npx tsx examples/approval/start.ts .fino/approval-state.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { billingAgent } from './billing-agent.ts';

const file = process.argv[2] ?? '.fino/approval-state.json';
const result = await billingAgent().generate('Invoice customer c-42 for 1200 EUR.');
if (result.status !== 'suspended') {
  console.log(`The run finished without needing an approval: ${result.text}`);
  process.exit(0);
}
for (const call of result.pending) {
  console.log(`pending ${call.kind}: ${call.toolName}(${JSON.stringify(call.args)})`);
  console.log(
    `  id ${call.toolCallId}, risk ${call.risk ?? 'unknown'}, args hash ${call.argsHash}`,
  );
}
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(result.state, null, 2));
console.log(`state saved to ${file}; approve with: npx tsx examples/approval/resume.ts ${file}`);
