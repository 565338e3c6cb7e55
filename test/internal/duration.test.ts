/**
 * Every duration option of the package, at its construction, against the one rule of
 * `checkDuration` (decision 050): Node's timers fire at once above 2^31 − 1 ms, so such a
 * value — and NaN, Infinity or a negative — must be refused with a RangeError naming it.
 */
import { describe, expect, it } from 'vitest';
import { httpTransport, mcpClient } from '../../src/ai/mcp/index.ts';
import { anthropic, gemini, openai } from '../../src/ai/model/index.ts';
import { memoryStore, session, sqliteStore } from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { checkDuration, MAX_TIMER_MS } from '../../src/internal/duration.ts';
import { Task } from '../../src/task/index.ts';

/** Each owner of a duration option, constructed with `ms` as that option. */
const owners: Record<string, { option: string; make: (ms: number) => unknown }> = {
  'Task timeoutMs': {
    option: 'timeoutMs',
    make: (ms) => new Task({ name: 't', run: () => 'ok', timeoutMs: ms }),
  },
  'tool() timeoutMs': {
    option: 'timeoutMs',
    make: (ms) => tool({ name: 't', description: 'd', execute: () => 'ok', timeoutMs: ms }),
  },
  'mcpClient timeoutMs': {
    option: 'timeoutMs',
    make: (ms) =>
      mcpClient({ transport: httpTransport({ url: 'http://127.0.0.1:9/mcp' }), timeoutMs: ms }),
  },
  'session leaseMs': {
    option: 'leaseMs',
    make: (ms) => session({ store: memoryStore(), leaseMs: ms }),
  },
  'sqliteStore busyTimeoutMs': {
    option: 'busyTimeoutMs',
    make: (ms) => sqliteStore('/nonexistent/never-opened.db', { busyTimeoutMs: ms }),
  },
  'openai initialRetryDelayMs': {
    option: 'initialRetryDelayMs',
    make: (ms) => openai({ model: 'm', initialRetryDelayMs: ms }),
  },
  'openai maxRetryDelayMs': {
    option: 'maxRetryDelayMs',
    make: (ms) => openai({ model: 'm', maxRetryDelayMs: ms }),
  },
  'anthropic initialRetryDelayMs': {
    option: 'initialRetryDelayMs',
    make: (ms) => anthropic({ model: 'm', initialRetryDelayMs: ms }),
  },
  'anthropic maxRetryDelayMs': {
    option: 'maxRetryDelayMs',
    make: (ms) => anthropic({ model: 'm', maxRetryDelayMs: ms }),
  },
  'gemini initialRetryDelayMs': {
    option: 'initialRetryDelayMs',
    make: (ms) => gemini({ model: 'm', initialRetryDelayMs: ms }),
  },
  'gemini maxRetryDelayMs': {
    option: 'maxRetryDelayMs',
    make: (ms) => gemini({ model: 'm', maxRetryDelayMs: ms }),
  },
};

describe('every duration option is checked at construction', () => {
  for (const [label, { option, make }] of Object.entries(owners)) {
    it(`${label}: refuses 2^31 ms, NaN, Infinity and -1 with a RangeError naming it`, () => {
      for (const bad of [MAX_TIMER_MS + 1, 30 * 24 * 3600_000, Number.NaN, Infinity, -1]) {
        expect(() => make(bad), `${label} = ${bad}`).toThrow(RangeError);
        expect(() => make(bad)).toThrow(option);
      }
    });
    it(`${label}: accepts the longest timer delay`, () => {
      expect(() => make(MAX_TIMER_MS)).not.toThrow();
    });
  }
});

describe('checkDuration', () => {
  it('passes undefined and in-range values through', () => {
    expect(checkDuration('x', undefined)).toBeUndefined();
    expect(checkDuration('x', 1)).toBe(1);
    expect(checkDuration('x', 0, 'nonNegative')).toBe(0);
  });
  it('says what was expected and what was received', () => {
    expect(() => checkDuration('timeoutMs', 0)).toThrow(
      /^timeoutMs: expected a number of milliseconds > 0 and ≤ 2147483647 .*received number 0$/,
    );
    expect(() => checkDuration('timeoutMs', '5' as unknown as number)).toThrow(
      /received string "5"$/,
    );
  });
});
