import { describe, expect, it } from 'vitest';
import { html } from '../../../../src/ai/session/inbox/html.ts';
import { ago, listFragment } from '../../../../src/ai/session/inbox/pages.ts';
import { runPage } from '../../../../src/ai/session/inbox/run-page.ts';
import type { SessionRun } from '../../../../src/ai/session/index.ts';

const ctx = { base: '', csrf: 'c', askName: true };
const at = '2026-12-03T08:00:00.000Z';
const suspended = (runId: string): SessionRun => ({
  runId,
  input: 'Refund order o-17',
  createdAt: at,
  updatedAt: at,
  status: 'suspended',
  pending: [
    { kind: 'approval', toolCallId: 'c1', toolName: 'refund', args: { id: runId }, argsHash: 'h' },
  ],
});

describe('listFragment', () => {
  it('puts the run listed last first when update times tie (list is oldest first)', () => {
    const text = listFragment(ctx, ['a', 'b', 'c'].map(suspended), '', 'suspended').toString();
    expect([...text.matchAll(/<article[^>]* data-run="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'c',
      'b',
      'a',
    ]);
  });

  it('orders runs changed in the same millisecond by revision, newest change first', () => {
    const runs = [
      { ...suspended('a'), revision: 7 },
      { ...suspended('b'), revision: 3 },
      { ...suspended('c'), revision: 5 },
    ];
    const text = listFragment(ctx, runs, '', 'suspended').toString();
    expect([...text.matchAll(/<article[^>]* data-run="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'a',
      'c',
      'b',
    ]);
  });

  it('folds a long argument into <details> and keeps short ones open', () => {
    const run = suspended('r');
    if (run.status !== 'suspended') throw new Error('unreachable');
    run.pending[0].args = { short: 'x', long: 'y'.repeat(400) };
    const text = listFragment(ctx, [run], '', 'suspended').toString();
    expect(text).toContain('<dt>short</dt><dd><code class="value">&quot;x&quot;</code></dd>');
    expect(text).toMatch(/<dt>long<\/dt><dd><details><summary>long \(402 characters\)<\/summary>/);
  });
});

it('gives every form field its own label target, even for ids that differ only in punctuation', () => {
  const text = listFragment(ctx, [suspended('a.b'), suspended('a_b')], '', 'suspended').toString();
  const ids = [...text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  expect(ids.length).toBe(4);
  expect(new Set(ids).size).toBe(ids.length);
});

describe('html', () => {
  it('escapes interpolated text and attributes, keeps nested fragments, drops nullish', () => {
    const evil = `"><script>x</script>'&`;
    expect(html`<a title="${evil}">${evil}</a>`.toString()).toBe(
      '<a title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;&#39;&amp;">&quot;&gt;&lt;script&gt;x&lt;/script&gt;&#39;&amp;</a>',
    );
    expect(
      html`<p>${html`<b>${'<i>'}</b>`}${[1, '<', null, undefined, false]}</p>`.toString(),
    ).toBe('<p><b>&lt;i&gt;</b>1&lt;</p>');
  });
});

it("shows a running run's last progress, its message escaped", () => {
  const run: SessionRun = {
    runId: 'r',
    input: 'Export the report',
    createdAt: at,
    updatedAt: at,
    status: 'running',
    worker: 'w1',
    leaseExpiresAt: at,
    progress: {
      toolCallId: 'c1',
      toolName: 'copy',
      progress: 3,
      total: 10,
      message: '<img src=x onerror=alert(1)>',
      at,
    },
  };
  expect(runPage(ctx, run).toString()).toContain(
    `<li>progress 3/10 in copy: &lt;img src=x onerror=alert(1)&gt; at <time datetime="${at}">${at}</time></li>`,
  );
});

describe('times', () => {
  it('say how long ago, in words', () => {
    const now = Date.parse(at);
    const earlier = (ms: number) => new Date(now - ms).toISOString();
    expect(ago(earlier(10_000), now)).toBe('just now');
    expect(ago(earlier(3 * 60_000), now)).toBe('3 min ago');
    expect(ago(earlier(5 * 3_600_000), now)).toBe('5 h ago');
    expect(ago(earlier(3 * 86_400_000), now)).toBe('3 days ago');
    expect(ago(earlier(-60_000), now)).toBe('just now'); // a clock a little ahead
  });

  it('"waiting since" reads "3 min ago", with the exact time on hover', () => {
    const now = Date.parse(at) + 3 * 60_000;
    const text = listFragment({ ...ctx, now }, [suspended('r')], '', 'suspended').toString();
    expect(text).toContain(
      `waiting since <time datetime="${at}" title="2026-12-03 08:00:00 UTC" data-ago>3 min ago</time>`,
    );
  });
});

describe('the run page', () => {
  it('labels tool results as such, not as the user', () => {
    const run: SessionRun = {
      runId: 'r',
      createdAt: at,
      updatedAt: at,
      status: 'done',
      text: 'Refunded.',
      state: {
        messages: [
          { role: 'user', content: 'Refund o-1' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'c1', name: 'refund', args: { id: 'o-1' } }],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', toolCallId: 'c1', content: 'refunded o-1' }],
          },
        ],
      },
    } as unknown as SessionRun;
    const roles = [
      ...runPage(ctx, run)
        .toString()
        .matchAll(/<span class="role">([^<]+)</g),
    ];
    expect(roles.map((m) => m[1])).toEqual(['User', 'Assistant', 'Tool result']);
  });
});

describe('the list of runs', () => {
  it('shows the tools each run called and its answer, shortened', () => {
    const done = {
      runId: 'r-done',
      createdAt: at,
      updatedAt: at,
      status: 'done',
      text: `Refunded. ${'z'.repeat(300)}`,
      state: { steps: [{ toolCalls: [{ id: 'c1', name: 'refund', args: {} }] }] },
    } as unknown as SessionRun;
    const failed = {
      runId: 'r-error',
      createdAt: at,
      updatedAt: at,
      status: 'error',
      error: 'model unavailable',
    } as unknown as SessionRun;
    const text = listFragment(ctx, [done, failed], '', 'all').toString();
    const cells = (runId: string) =>
      new RegExp(
        `${runId}</a></td><td>[a-z]+</td><td class="tools">([^<]*)</td><td class="answer">([^<]*)</td>`,
      )
        .exec(text)
        ?.slice(1);
    expect(cells('r-done')).toEqual(['refund', `Refunded. ${'z'.repeat(150)}…`]);
    expect(cells('r-error')).toEqual(['', 'model unavailable']);
  });
});
