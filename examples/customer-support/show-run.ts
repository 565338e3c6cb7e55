/** Prints a run of the desk as the customer and the approver see it. */
import type { Session, SessionRun } from 'fino:ai/session';

export async function showRun(runs: Session, run: SessionRun): Promise<void> {
  const view = await runs.get(run.runId);
  const speaker = view?.state?.agent ?? 'triage';
  console.log(`run ${run.runId}: ${run.status} (${speaker})`);
  const models = view?.state?.steps.map((step) => step.model ?? '?') ?? [];
  if (models.length > 0) console.log(`models: ${models.join(', ')}`);
  if (run.status === 'error') console.log(`stopped: ${run.code ?? 'error'}: ${run.error}`);
  if (run.status === 'done') console.log(`${speaker}: ${run.text}`);
  if (run.status === 'suspended') {
    for (const call of run.pending) {
      console.log(`pending ${call.kind}: ${call.toolName}(${JSON.stringify(call.args)})`);
      console.log(`  approve: npx tsx examples/customer-support/approve.ts ${call.token}`);
    }
  }
}
