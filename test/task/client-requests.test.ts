import { describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import { checkLog } from '../../src/task/client-requests.ts';
import { v } from '../../src/validate/index.ts';

describe('ctx.log(), ctx.sample() and ctx.elicit() outside MCP', () => {
  it('checks a log call and names what is wrong', () => {
    expect(checkLog('info', 'hi')).toEqual({ level: 'info', message: 'hi' });
    expect(checkLog('debug', 'x'.repeat(20_000)).message).toHaveLength(10_000);
    expect(() => checkLog('loud', 'hi')).toThrow(
      'log: level: expected one of debug, info, notice, warning, error, critical, alert, emergency, received string "loud"',
    );
    expect(() => checkLog('info', 42)).toThrow(
      'log: message: expected a string, received number 42',
    );
  });

  it("passes log calls to the caller's log, and rejects sampling and forms with a reason", async () => {
    const logged: unknown[] = [];
    const asker = tool({
      name: 'asker',
      parameters: v.object({ what: v.string() }),
      execute: async ({ what }, ctx) => {
        ctx.log('notice', 'starting');
        if (what === 'model')
          await ctx.sample({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 });
        if (what === 'person')
          await ctx.elicit({ message: 'Name?', schema: { type: 'object', properties: {} } });
        return 'ok';
      },
    });
    const log = (level: string, message: string) => logged.push([level, message]);
    expect((await asker.invoke({ what: 'nothing' }, { log })).content).toBe('ok');
    expect(logged).toEqual([['notice', 'starting']]);
    expect(JSON.stringify((await asker.invoke({ what: 'model' })).content)).toContain(
      'ctx.sample: this call has no model to ask',
    );
    expect(JSON.stringify((await asker.invoke({ what: 'person' })).content)).toContain(
      'ctx.elicit: this call has no one to ask',
    );
  });
});
