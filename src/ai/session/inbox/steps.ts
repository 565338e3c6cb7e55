/**
 * The run page's steps: each model turn's tool calls, tokens and cost (issue 22).
 */
import { describeUsage } from '../../model/index.ts';
import type { SessionRun } from '../types.ts';
import { type Html, html } from './html.ts';

/** Each step of the run's state with its tool calls and usage; nothing before the first step. */
export function stepsSection(run: SessionRun): Html | '' {
  const steps = Array.isArray(run.state?.steps) ? run.state.steps : [];
  if (steps.length === 0) return '';
  return html`<h2>Steps</h2><table class="steps"><thead><tr><th scope="col">Step</th><th scope="col">Tool calls</th><th scope="col">Tokens and cost</th></tr></thead><tbody>${steps.map(
    (step, i) =>
      html`<tr><td>${i}</td><td>${(Array.isArray(step?.toolCalls) ? step.toolCalls : []).map((c) => c?.name).join(', ')}</td><td>${step?.usage ? describeUsage(step.usage) : ''}</td></tr>`,
  )}</tbody></table>`;
}
