/**
 * `stateSecret`: a state that travelled through a client (JSON out, JSON back) resumes
 * only as the agent signed it; an edited one is refused before any tool runs.
 */
import { describe, expect, it } from 'vitest';
import { AgentError, agent, type RunState } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { echoTool } from './helpers.ts';

const SECRET = 'a-secret-of-at-least-32-bytes-long!!';

/** An agent whose first turn calls `remove` (needs approval), then answers. */
function setup(stateSecret: string | Uint8Array | null = SECRET) {
  const remove = echoTool({ name: 'remove', requiresApproval: true });
  const model = scriptedModel([
    { toolCalls: [{ id: 'r1', name: 'remove', args: { text: 'a.txt' } }] },
    'Removed.',
  ]);
  return { remove, bot: agent({ model, tools: [remove], stateSecret: stateSecret ?? undefined }) };
}

/** The suspended state as a client sends it back: JSON text, parsed. */
async function suspended(bot: ReturnType<typeof setup>['bot']): Promise<RunState> {
  const result = await bot.generate('remove a.txt');
  if (result.status !== 'suspended') throw new Error('expected a suspended run');
  return JSON.parse(JSON.stringify(result.state));
}

async function refusal(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AgentError)) throw new Error(`expected an AgentError, got ${error}`);
  return error;
}

describe('stateSecret', () => {
  it('signs the state it hands out and resumes it after a JSON round trip', async () => {
    const { bot, remove } = setup();
    const state = await suspended(bot);
    expect(state.signature).toMatch(/^hmac-sha256:[\w-]{43}$/);
    const result = await bot.resume(state, { r1: { approve: true } });
    expect(result.status).toBe('done');
    expect(remove.calls.map((c) => c.args.text)).toEqual(['a.txt']);
    // The final state is signed too, and a fresh signature covers what changed.
    expect(result.state.signature).toMatch(/^hmac-sha256:/);
    expect(result.state.signature).not.toBe(state.signature);
  });

  it('refuses a state whose pending arguments were edited, and runs nothing', async () => {
    const { bot, remove } = setup();
    const state = await suspended(bot);
    state.turn!.pending[0].args = { text: '/etc/passwd' };
    const error = await refusal(bot.resume(state, { r1: { approve: true } }));
    expect(error.code).toBe('INVALID_SIGNATURE');
    expect(error.message).toBe(
      'state.signature: the state was changed after it was signed, or signed with another stateSecret; it is refused',
    );
    expect(remove.calls).toEqual([]);
  });

  it('refuses a consistent edit (the call, the pending entry and its hash) too', async () => {
    const { bot, remove } = setup();
    const state = await suspended(bot);
    const { argsHash } = await import('../../../src/ai/agent/index.ts');
    const args = { text: 'b.txt' };
    state.steps[state.turn!.step].toolCalls[0].args = args;
    Object.assign(state.turn!.pending[0], { args, argsHash: argsHash(args) });
    const error = await refusal(bot.resume(state, { r1: { approve: true } }));
    expect(error.code).toBe('INVALID_SIGNATURE');
    expect(remove.calls).toEqual([]);
  });

  it('refuses an unsigned state, and one signed with another secret', async () => {
    const { bot } = setup();
    const state = await suspended(bot);
    const { signature: _signature, ...unsigned } = state;
    const error = await refusal(bot.resume(unsigned as RunState, { r1: { approve: true } }));
    expect(error.code).toBe('INVALID_SIGNATURE');
    expect(error.message).toContain('state.signature: expected the signature');
    expect(error.message).toContain('received undefined');
    const other = setup('another-secret-of-at-least-32-bytes!!');
    const foreign = await refusal(other.bot.resume(state, { r1: { approve: true } }));
    expect(foreign.code).toBe('INVALID_SIGNATURE');
  });

  it('signs checkpoints, so a stored checkpoint resumes', async () => {
    const { bot } = setup();
    const saved: RunState[] = [];
    const result = await bot.generate('remove a.txt', {
      onCheckpoint: (state) => {
        saved.push(JSON.parse(JSON.stringify(state)));
      },
    });
    expect(result.status).toBe('suspended');
    expect(saved.length).toBeGreaterThan(0);
    for (const state of saved) expect(state.signature).toMatch(/^hmac-sha256:/);
    const resumed = await bot.resume(saved.at(-1)!, { r1: { approve: true } });
    expect(resumed.status).toBe('done');
  });

  it('accepts a Uint8Array secret and refuses a short one without showing it', () => {
    expect(() => setup(new Uint8Array(32))).not.toThrow();
    expect(() => setup('hunter2')).toThrow(
      "agent(options).stateSecret: expected a string or Uint8Array of at least 32 bytes (e.g. randomBytes(32).toString('base64url')), received a string of 7 bytes",
    );
    expect(() => setup(42 as never)).toThrow('received number');
  });
});

describe('without stateSecret', () => {
  it('refuses a state whose pending arguments alone were edited (ARGS_MISMATCH)', async () => {
    const { bot, remove } = setup(null);
    const state = await suspended(bot);
    expect(state.signature).toBeUndefined();
    state.turn!.pending[0].args = { text: '/etc/passwd' };
    const error = await refusal(bot.resume(state, { r1: { approve: true } }));
    expect(error.code).toBe('ARGS_MISMATCH');
    expect(error.message).toContain("the pending call's arguments were changed");
    expect(remove.calls).toEqual([]);
  });
});
