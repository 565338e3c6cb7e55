import { describe, expect, it } from 'vitest';
import { html } from '../../../../src/ai/session/inbox/html.ts';
import { listFragment, runPage } from '../../../../src/ai/session/inbox/pages.ts';
import type { SessionRun } from '../../../../src/ai/session/index.ts';

const ctx = { base: '', csrf: 'c', askName: true };
const at = '2026-12-03T08:00:00.000Z';
const suspended = (runId: string): SessionRun => ({
  runId,
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
    expect(text).toContain('<dt>short</dt><dd><pre>&quot;x&quot;</pre></dd>');
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
