/**
 * The chat example's agent: a shop assistant with a plain tool (`lookup_order`) and one
 * that waits for the user's approval in the page (`refund`), under a budget. Its model is
 * a real provider's when its API key is set (OPENAI_API_KEY, else ANTHROPIC_API_KEY),
 * else the offline demo model, which streams slowly enough to watch.
 */
import { type Agent, agent } from 'fino:ai/agent';
import { anthropic, type Model, openai } from 'fino:ai/model';
import { lookupOrder, refund } from '../session/refund-agent.ts';
import { type DemoPace, demoModel } from './demo-model.ts';

/** The most tokens one run may spend (input and output, across resumes). */
export const MAX_TOKENS_PER_RUN = 100_000;

/** The model the environment asks for: OpenAI, Anthropic, or the offline demo. */
export function chooseModel(env = process.env, pace?: DemoPace): Model {
  if (env.OPENAI_API_KEY) return openai({ model: 'gpt-4.1-mini' });
  if (env.ANTHROPIC_API_KEY) return anthropic({ model: 'claude-sonnet-4-5' });
  return demoModel(pace);
}

/** The shop assistant, on `model`. */
export function shopAgent(model: Model): Agent {
  return agent({
    name: 'shop',
    model,
    instructions:
      'You are the support assistant of a web shop. Look orders up with lookup_order; ' +
      'refund them with refund (a person approves each refund).',
    tools: [lookupOrder, refund],
    budget: { maxTokens: MAX_TOKENS_PER_RUN },
  });
}
