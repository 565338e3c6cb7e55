// Hostile executors and arguments of isolated tools: nothing they do may crash, block
// or hang the caller.
import { describe, expect, it } from 'vitest';
import * as tools from '../task/fixtures/isolated-tools.ts';

describe('isolated tools under hostile executors and arguments', () => {
  it('stops a loop that never yields, and the caller keeps running', async () => {
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(1), 20);
    const result = await tools.spin.invoke({});
    clearInterval(ticker);
    expect(result.isError).toBe(true);
    // The caller's event loop ran while the worker spun.
    expect(ticks.length).toBeGreaterThan(0);
  });

  it('survives a worker that exhausts its heap', async () => {
    expect((await tools.hog.invoke({})).isError).toBe(true);
    expect(await tools.add.invoke({ a: 2, b: 2 })).toEqual({ content: '4' });
  });

  it('reports a thrown value whose properties throw, without reading it in the caller', async () => {
    expect(await tools.throwsHostile.invoke({})).toEqual({
      content: 'an object that cannot be described was thrown',
      isError: true,
    });
  });

  it('fails a suspension whose payload cannot be cloned instead of losing it', async () => {
    const result = await tools.suspendsUncloneable.invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toContain('suspend: the payload cannot be sent from the worker');
  });

  it('fails arguments that cannot be cloned with an isError result', async () => {
    const result = await tools.raw.invoke({ callback: () => 1 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      'Tool "raw": its arguments or context cannot be sent to its worker',
    );
    expect(await tools.raw.invoke({ ok: true })).toEqual({ content: '{"ok":true}' });
  });

  it('does not let a __proto__ key in the arguments pollute a prototype across the boundary', async () => {
    const args = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    const result = await tools.raw.invoke(args);
    expect(result.isError).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
