import { describe, expect, it } from 'vitest';
import {
  AgentError,
  type AgentEvent,
  agent,
  DEFAULT_GUARDRAIL_TIMEOUT_MS,
  GuardrailFailedError,
  GuardrailTrippedError,
  guardrail,
  type RunState,
} from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { deferred, echoTool } from './helpers.ts';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const never = guardrail({ name: 'never', check: () => ({ tripped: false }) });
const always = (name = 'always', output: unknown = 'blocked') =>
  guardrail({ name, check: () => ({ tripped: true, output }) });

/** A guardrail whose check never answers: the run is stopped while it runs. */
const pending = (name: string) =>
  guardrail({ name, check: () => deferred<{ tripped: boolean }>().promise });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('guardrail()', () => {
  it('refuses bad options, naming what was wrong', () => {
    const bad = (options: unknown) => () => guardrail(options as never);
    expect(bad({ check: () => ({ tripped: false }) })).toThrow(/name: expected a non-empty string/);
    expect(bad({ name: 'g' })).toThrow(/guardrail "g": expected either check/);
    expect(bad({ name: 'g', check() {}, timeoutMs: 0 })).toThrow(/timeoutMs: expected a positive/);
    expect(bad({ name: 'g', check() {}, runInParalel: true })).toThrow(
      /did you mean "runInParallel"/,
    );
    expect(bad({ name: 'g', agent: agent({ model: scriptedModel([]) }) })).toThrow(/tripWhen/);
    expect(guardrail({ name: 'g', check: () => ({ tripped: false }) }).timeoutMs).toBe(
      DEFAULT_GUARDRAIL_TIMEOUT_MS,
    );
  });

  it('refuses duplicate names across an agent’s guardrails, and non-guardrails', () => {
    const model = scriptedModel([]);
    expect(() => agent({ model, inputGuardrails: [never], outputGuardrails: [never] })).toThrow(
      /outputGuardrails\[0\]: a second guardrail named "never"/,
    );
    expect(() => agent({ model, inputGuardrails: [() => true] as never })).toThrow(
      /inputGuardrails\[0\]: expected a guardrail made by guardrail/,
    );
    expect(() => agent({ model, toolGuardrails: { befor: [] } as never })).toThrow(
      /did you mean "before"/,
    );
  });
});

describe('input guardrails', () => {
  it('run in parallel with the first request; a trip discards the answer and keeps its usage', async () => {
    const model = scriptedModel([{ text: 'Sure, x = 2.', usage }], { id: 'openai:gpt-4.1' });
    const seen: string[] = [];
    const events: AgentEvent[] = [];
    const homework = guardrail({
      name: 'math_homework',
      check: async (input) => {
        seen.push(String(input));
        return { tripped: true, output: { isMathHomework: true } };
      },
    });
    const bot = agent({ model, inputGuardrails: [homework] });
    const run = bot.stream('Solve 2x + 3 = 7');
    run.result.catch(() => {});
    const error = await rejection(
      (async () => {
        for await (const event of run) events.push(event);
      })(),
    );
    expect(error).toBeInstanceOf(GuardrailTrippedError);
    const trip = error as GuardrailTrippedError;
    expect(trip).toBeInstanceOf(AgentError);
    expect([trip.code, trip.guardrail, trip.kind]).toEqual([
      'GUARDRAIL_TRIPPED',
      'math_homework',
      'input',
    ]);
    expect(trip.output).toEqual({ isMathHomework: true });
    expect(trip.message).toMatch(/input guardrail "math_homework" tripped .*isMathHomework/);
    expect(seen).toEqual(['Solve 2x + 3 = 7']);
    expect(model.requests).toHaveLength(1); // in parallel: the request was made
    expect(trip.state.messages).toEqual([{ role: 'user', content: 'Solve 2x + 3 = 7' }]);
    expect(trip.state.usage.totalTokens).toBe(15);
    expect(trip.state.usage.cost).toBeGreaterThan(0);
    expect(trip.state.guardrails).toEqual({
      tripped: [
        { name: 'math_homework', kind: 'input', step: 0, output: { isMathHomework: true } },
      ],
    });
    expect(events).toContainEqual({
      type: 'guardrail',
      step: 0,
      name: 'math_homework',
      kind: 'input',
      tripped: true,
    });
  });

  it('with runInParallel: false run before the request, so a trip costs no model call', async () => {
    const model = scriptedModel(['never sent']);
    const bot = agent({
      model,
      inputGuardrails: [
        guardrail({ name: 'first', runInParallel: false, check: () => ({ tripped: true }) }),
      ],
    });
    const error = await rejection(bot.generate('hi'));
    expect((error as GuardrailTrippedError).guardrail).toBe('first');
    expect(model.requests).toHaveLength(0);
  });

  it('that pass release the answer; they do not run again on later steps', async () => {
    let runs = 0;
    const counted = guardrail({
      name: 'counted',
      check: () => ({ tripped: false, output: ++runs }),
    });
    const echo = echoTool();
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }] }, 'done']),
      tools: [echo],
      inputGuardrails: [counted],
    });
    const result = await bot.generate('hi');
    expect(result.status).toBe('done');
    expect(runs).toBe(1);
    expect(result.state.guardrails).toBeUndefined();
  });

  it('hold the answer in a checkpoint while they run: a resume in a new process reuses it', async () => {
    const slow = pending('slow');
    const checkpoints: RunState[] = [];
    const first = agent({
      model: scriptedModel([{ text: 'Hello!', usage }]),
      inputGuardrails: [slow],
    });
    const stop = new AbortController();
    const run = first.generate('hi', {
      signal: stop.signal,
      onCheckpoint: (state) => {
        checkpoints.push(state);
        stop.abort(); // the process dies while the guardrail still runs
      },
    });
    await expect(run).rejects.toThrow();
    const saved = JSON.parse(JSON.stringify(checkpoints[0])) as RunState;
    expect(saved.guardrails?.heldTurn?.text).toBe('Hello!');
    expect(saved.messages).toHaveLength(1);
    const model = scriptedModel([]); // no answer left: asking again would fail
    const second = agent({ model, inputGuardrails: [never] });
    const result = await second.resume(saved);
    expect(result.status === 'done' && result.text).toBe('Hello!');
    expect(result.state.usage.totalTokens).toBe(15);
    expect(result.state.guardrails).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it('a throwing, hanging or malformed check fails the run, naming the guardrail', async () => {
    const model = () => scriptedModel(['ok', 'ok']);
    const cases: [ReturnType<typeof guardrail>, RegExp][] = [
      [
        guardrail({
          name: 'throws',
          check: () => {
            throw new Error('classifier down');
          },
        }),
        /input guardrail "throws" failed: its check threw: classifier down/,
      ],
      [
        guardrail({ name: 'hangs', timeoutMs: 30, check: () => new Promise(() => {}) }),
        /input guardrail "hangs" failed: no verdict within its timeoutMs \(30 ms\)/,
      ],
      [
        guardrail({ name: 'answers', check: () => 'fine' as never }),
        /input guardrail "answers" failed: expected its check to return \{ tripped: boolean, output\? \}, received string "fine"/,
      ],
      [
        guardrail({
          name: 'hostile',
          check: () =>
            ({
              get tripped(): boolean {
                throw new Error('gotcha');
              },
            }) as never,
        }),
        /input guardrail "hostile" failed: expected its check to return/,
      ],
      [
        guardrail({ name: 'extra', check: () => ({ tripped: false, result: 'x' }) }),
        /input guardrail "extra" failed: expected its check to return \{ tripped: boolean, output\? \}/,
      ],
    ];
    for (const [g, message] of cases) {
      const error = await rejection(agent({ model: model(), inputGuardrails: [g] }).generate('hi'));
      expect(error).toBeInstanceOf(GuardrailFailedError);
      expect((error as GuardrailFailedError).code).toBe('GUARDRAIL_FAILED');
      expect((error as GuardrailFailedError).guardrail).toBe(g.name);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('output guardrails', () => {
  it('check the final answer before it is returned', async () => {
    const checked: unknown[] = [];
    const pii = guardrail({
      name: 'pii',
      check: (answer) => {
        checked.push(answer);
        return { tripped: /\d{3}-\d{4}/.test(String(answer)), output: 'phone number' };
      },
    });
    const ok = await agent({
      model: scriptedModel(['Call us.']),
      outputGuardrails: [pii],
    }).generate('hi');
    expect(ok.status).toBe('done');
    const error = await rejection(
      agent({ model: scriptedModel(['Call 555-1234.']), outputGuardrails: [pii] }).generate('hi'),
    );
    expect(checked).toEqual(['Call us.', 'Call 555-1234.']);
    expect((error as GuardrailTrippedError).kind).toBe('output');
    expect((error as GuardrailTrippedError).state.guardrails?.tripped?.[0]).toMatchObject({
      name: 'pii',
      kind: 'output',
      step: 0,
      output: 'phone number',
    });
  });

  it('can be an agent: its answer decides through tripWhen', async () => {
    const checker = agent({ name: 'checker', model: scriptedModel(['UNSAFE']) });
    const judged = guardrail({
      name: 'judge',
      agent: checker,
      tripWhen: (r) => r.text === 'UNSAFE',
    });
    const error = await rejection(
      agent({ model: scriptedModel(['rm -rf /']), outputGuardrails: [judged] }).generate('hi'),
    );
    expect((error as GuardrailTrippedError).output).toBe('UNSAFE');
  });
});

describe('tool guardrails', () => {
  it('before: a trip with a result refuses the call; the model sees it and the tool never runs', async () => {
    const echo = echoTool();
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', args: { text: 'secret' } }] },
      'ok',
    ]);
    const noSecrets = guardrail({
      name: 'no_secrets',
      check: (call) => {
        const { args } = call as { args: { text: string } };
        return args.text === 'secret'
          ? { tripped: true, output: 'secret', result: 'Refused: that text is secret.' }
          : { tripped: false };
      },
    });
    const result = await agent({
      model,
      tools: [echo],
      toolGuardrails: { before: [noSecrets] },
    }).generate('hi');
    expect(echo.calls).toHaveLength(0);
    expect(result.state.steps[0].toolResults[0]).toMatchObject({
      content: 'Refused: that text is secret.',
      isError: true,
    });
    expect(result.state.guardrails?.tripped?.[0]).toMatchObject({
      name: 'no_secrets',
      kind: 'tool-before',
    });
  });

  it('before: a trip without a result stops the run', async () => {
    const echo = echoTool();
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }, 'ok']);
    const error = await rejection(
      agent({ model, tools: [echo], toolGuardrails: { before: [always('stop_tools')] } }).generate(
        'hi',
      ),
    );
    expect(echo.calls).toHaveLength(0);
    expect(error).toMatchObject({
      code: 'GUARDRAIL_TRIPPED',
      guardrail: 'stop_tools',
      kind: 'tool-before',
    });
  });

  it('after: replaces the result, or stops the run; the tool runs once either way', async () => {
    const echo = echoTool();
    const redact = guardrail({
      name: 'redact',
      check: () => ({ tripped: true, output: 'redacted', result: 'echo: [redacted]' }),
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }, 'ok']);
    const result = await agent({
      model,
      tools: [echo],
      toolGuardrails: { after: [redact] },
    }).generate('hi');
    expect(result.state.steps[0].toolResults[0].content).toBe('echo: [redacted]');
    expect(echo.calls).toHaveLength(1);
    const model2 = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }, 'ok']);
    const error = await rejection(
      agent({ model: model2, tools: [echo], toolGuardrails: { after: [always('leak')] } }).generate(
        'hi',
      ),
    );
    expect(error).toMatchObject({ guardrail: 'leak', kind: 'tool-after' });
    expect(echo.calls).toHaveLength(2);
  });

  it('after: a result waiting for its guardrail is checkpointed; a resume never runs the tool again', async () => {
    const echo = echoTool();
    const slow = pending('slow_after');
    const script = () =>
      scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }, 'ok']);
    const stop = new AbortController();
    let held: RunState | undefined;
    const run = agent({
      model: script(),
      tools: [echo],
      toolGuardrails: { after: [slow] },
    }).generate('hi', {
      signal: stop.signal,
      onCheckpoint: (state, { reason }) => {
        if (reason === 'tool-outcome' && state.guardrails?.heldResults) {
          held = state;
          stop.abort();
        }
      },
    });
    await expect(run).rejects.toThrow();
    expect(echo.calls).toHaveLength(1);
    const saved = JSON.parse(JSON.stringify(held)) as RunState;
    const model = scriptedModel(['ok']);
    const result = await agent({
      model,
      tools: [echo],
      toolGuardrails: {
        after: [guardrail({ name: 'slow_after', check: () => ({ tripped: false }) })],
      },
    }).resume(saved);
    expect(result.status === 'done' && result.text).toBe('ok');
    expect(echo.calls).toHaveLength(1);
    expect(result.state.steps[0].toolResults[0].content).toBe('echo: x');
    expect(result.state.guardrails).toBeUndefined();
  });
});

describe('guardrails across suspend, JSON and resume', () => {
  it('an approved call is checked by the before-guardrails when it runs; the output guardrail checks the end', async () => {
    const refund = echoTool({ name: 'refund', requiresApproval: true });
    const seen: string[] = [];
    const build = (script: Parameters<typeof scriptedModel>[0]) =>
      agent({
        model: scriptedModel(script),
        tools: [refund],
        toolGuardrails: {
          before: [
            guardrail({
              name: 'limit',
              check: (call) => {
                seen.push(`before ${(call as { toolName: string }).toolName}`);
                return { tripped: false };
              },
            }),
          ],
        },
        outputGuardrails: [
          guardrail({
            name: 'tone',
            check: (answer) => {
              seen.push(`output ${String(answer)}`);
              return { tripped: false };
            },
          }),
        ],
      });
    const first = await build([
      { toolCalls: [{ id: 'r1', name: 'refund', args: { text: 'A-1' } }] },
    ]).generate('Refund A-1');
    expect(first.status).toBe('suspended');
    expect(seen).toEqual([]);
    const saved = JSON.parse(JSON.stringify(first.state)) as RunState;
    const result = await build(['Refunded A-1.']).resume(saved, { r1: { approve: true } });
    expect(result.status === 'done' && result.text).toBe('Refunded A-1.');
    expect(refund.calls).toHaveLength(1);
    expect(seen).toEqual(['before refund', 'output Refunded A-1.']);
  });
});
