/**
 * Workflow runs in the inbox, over plain `Request` objects: their pending decisions
 * listed and decided exactly once (with login, CSRF and per-approver audit as for
 * session runs), and a run's history as a timeline.
 */
import { describe, expect, it } from 'vitest';
import {
  type InboxWorkflows,
  inbox,
  memoryStore,
  session,
} from '../../../../src/ai/session/index.ts';
import { memoryWorkflowStore, workflowRuns } from '../../../../src/workflow/index.ts';
import { browserLike } from './fixtures.ts';
import { workflowShop } from './workflow-fixtures.ts';

const ORIGIN = 'http://127.0.0.1:9999';
const HOSTILE = '<img src=x onerror=window.__pwned=1></script><script>window.__pwned=2</script>';

function setup(options: { token?: string; tokens?: Record<string, string> } = {}) {
  const store = memoryWorkflowStore();
  const shop = workflowShop(store);
  // The interface the inbox takes is what workflowRuns(store) gives: checked by the compiler here.
  const workflows: InboxWorkflows = workflowRuns(store);
  const handle = inbox({ session: session({ store: memoryStore() }), workflows, ...options });
  const { get, post, csrfOf } = browserLike(handle, ORIGIN);
  return { ...shop, store, handle, get, post, csrfOf };
}

const DECISION = '/workflows/wf-1/decisions/%24call%3Arefund';

describe('inbox: workflow runs', () => {
  it('lists a workflow run’s pending decision with its tool, arguments and risk, escaped', async () => {
    const { refunds, worker, store, get } = setup();
    await refunds.start(HOSTILE, { store, runId: 'wf-1' });
    await worker.drain();
    const text = await (await get('/')).text();
    expect(text).toContain('Workflow decisions');
    expect(text).not.toContain('Nothing waits for a decision.');
    expect(text).toContain('workflow refunds run <a href="/workflows/wf-1">wf-1</a>');
    expect(text).toContain('destructive');
    expect(text).toContain('&lt;img src=x onerror=window.__pwned=1&gt;');
    expect(text).not.toContain('<img');
    expect(text).toContain(`action="${DECISION}"`);
    expect((await get('/?tool=ask_size')).ok).toBe(true);
    expect(await (await get('/?tool=ask_size')).text()).toContain('Nothing waits for a decision.');
  });

  it('approves once: the tool runs once after the worker continues, the second click is told who decided', async () => {
    const { refunds, worker, store, post, csrfOf, executions } = setup();
    await refunds.start('o-1', { store, runId: 'wf-1' });
    await worker.drain();
    const csrf = await csrfOf();
    const [a, b] = await Promise.all([
      post(DECISION, { csrf, action: 'approve', by: 'ana', note: 'ok' }),
      post(DECISION, { csrf, action: 'approve', by: 'bo' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    const winner = a.status === 200 ? 'ana (unverified)' : 'bo (unverified)';
    expect(await won.text()).toContain('Approved. The run goes on when a worker picks it up.');
    expect(await lost.text()).toMatch(
      new RegExp(
        `Already decided by ${winner.replace(/[()]/g, '\\$&')} at \\d{4}-\\d\\d-\\d\\dT[^ ]+ \\(approve`,
      ),
    );
    await worker.drain();
    expect(await refunds.result('wf-1', { store })).toEqual({ content: 'refunded o-1' });
    expect(executions.refund).toBe(1);
    expect((await refunds.get('wf-1', { store })).audit).toMatchObject([
      { action: 'approve', by: winner, decisionId: '$call:refund' },
    ]);
    const late = await post(DECISION, { csrf, action: 'reject', note: 'too late' });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain(`Already decided by ${winner}`);
  });

  it('after an approval says the run waits for a worker, by the tool’s name, until one carries it on', async () => {
    const { refunds, worker, store, get, post, csrfOf } = setup();
    await refunds.start('o-8', { store, runId: 'wf-1' });
    await worker.drain();
    const decided = await (
      await post(DECISION, { csrf: await csrfOf(), action: 'approve' })
    ).text();
    expect(decided).toContain('Approved. The run goes on when a worker picks it up.');
    for (const page of [decided, await (await get('/workflows/wf-1')).text()]) {
      expect(page).toContain(
        '<span id="run-status" data-status="waiting">approved, waiting for a worker</span>',
      );
      expect(page).toContain(
        '<li>waits on <span class="id" title="$call:refund">refund</span> approved</li>',
      );
      expect(page).toContain('Nothing happens until a worker runs');
      // The internal id is only ever an attribute (the title, the form's address), never text.
      expect(page.replace(/<[^>]*>/g, '')).not.toContain('$call:');
    }
    const listed = await (await get('/?status=running')).text();
    // The list reads no audit trail: it knows a decision was taken, not which.
    expect(listed).toContain('<td>decided, waiting for a worker</td>');
    await worker.drain();
    const done = await (await get('/workflows/wf-1')).text();
    expect(done).toContain('<span id="run-status" data-status="done">done</span>');
    expect(done).not.toContain('Nothing happens until a worker runs');
  });

  it('says quietly what a tool did not declare, and shows a declared risk', async () => {
    const { refunds, sizes, worker, store, get } = setup();
    await refunds.start('o-9', { store, runId: 'wf-1' });
    await sizes.start(undefined, { store, runId: 'wf-s' });
    await worker.drain();
    const page = await (await get('/')).text();
    const card = (run: string) =>
      new RegExp(`<article[^>]*data-workflow-run="${run}"[\\s\\S]*?</article>`).exec(page)![0];
    expect(card('wf-1')).toContain('<li>risk <span class="risk">destructive</span></li>');
    expect(card('wf-1')).toContain('<li>side effects yes</li>');
    expect(card('wf-1')).not.toContain('not declared');
    expect(card('wf-s')).toContain(
      '<li class="undeclared">risk and side effects not declared</li>',
    );
    expect(card('wf-s')).not.toContain('class="risk"');
    expect(page.replace(/<[^>]*>/g, '')).not.toMatch(/decision \$call/);
  });

  it('says a decision of a cancelled run is no longer pending, and changes nothing', async () => {
    const { refunds, worker, store, post, csrfOf, executions } = setup();
    await refunds.start('o-7', { store, runId: 'wf-1' });
    await worker.drain();
    const csrf = await csrfOf(); // the page as the approver opened it, before the cancel
    await refunds.cancel('wf-1', { store, by: 'ops' });
    await worker.drain();
    const response = await post(DECISION, { csrf, action: 'approve' });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain('This decision is no longer pending');
    expect((await refunds.get('wf-1', { store })).status).toBe('cancelled');
    expect(executions.refund).toBe(0);
  });

  it('rejects with the note as the reason: the call’s result is an error, the tool never runs', async () => {
    const { refunds, worker, store, post, csrfOf, executions } = setup();
    await refunds.start('o-2', { store, runId: 'wf-1' });
    await worker.drain();
    const response = await post(DECISION, {
      csrf: await csrfOf(),
      action: 'reject',
      note: 'not received',
    });
    expect(response.status).toBe(200);
    await worker.drain();
    const result = (await refunds.result('wf-1', { store })) as {
      isError?: boolean;
      content: unknown;
    };
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('not received');
    expect(executions.refund).toBe(0);
  });

  it('answers a suspension, checked against its declared schema', async () => {
    const { sizes, worker, store, get, post, csrfOf } = setup();
    await sizes.start(undefined, { store, runId: 'wf-s' });
    await worker.drain();
    const page = await (await get('/')).text();
    expect(page).toContain('asks for an answer: <strong>Which size?</strong>');
    expect(page).toContain('Answer (JSON matching the schema)');
    const [pending] = (await sizes.get('wf-s', { store })).pending!;
    const path = `/workflows/wf-s/decisions/${encodeURIComponent(pending.decisionId)}`;
    const csrf = await csrfOf();
    const bad = await post(path, { csrf, action: 'answer', answer: '"XL"' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('The answer does not match the schema');
    const good = await post(path, { csrf, action: 'answer', answer: '"M"', by: 'ana' });
    expect(good.status).toBe(200);
    await worker.drain();
    expect(await sizes.result('wf-s', { store })).toEqual({ content: 'size M' });
  });

  it('refuses forged, cross-origin, malformed and unknown decisions, changing nothing', async () => {
    const { refunds, worker, store, post, csrfOf, executions } = setup();
    await refunds.start('o-3', { store, runId: 'wf-1' });
    await worker.drain();
    const csrf = await csrfOf();
    expect((await post(DECISION, { csrf: 'forged', action: 'approve' })).status).toBe(403);
    expect(
      (await post(DECISION, { csrf, action: 'approve' }, { origin: 'https://evil.example' }))
        .status,
    ).toBe(403);
    const bogus = await post(DECISION, { csrf, action: 'delete' });
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).toContain('Expected action to be approve, reject or answer');
    expect((await post('/workflows/nope/decisions/x', { csrf, action: 'approve' })).status).toBe(
      404,
    );
    expect(
      (await post('/workflows/wf-1/decisions/%24call%3Anope', { csrf, action: 'approve' })).status,
    ).toBe(404);
    expect((await post('/workflows/wf-1/decisions/%ZZ', { csrf, action: 'approve' })).status).toBe(
      400,
    );
    await worker.drain();
    expect((await refunds.get('wf-1', { store })).status).toBe('waiting');
    expect(executions.refund).toBe(0);
  });

  it('with a token per approver records the approver whose token logged in', async () => {
    const { refunds, worker, store, get, post, executions } = setup({
      tokens: { ana: 'ana-secret-1', bo: 'bo-secret-22' },
    });
    await refunds.start('o-4', { store, runId: 'wf-1' });
    await worker.drain();
    expect((await get('/workflows/wf-1')).status).toBe(401);
    expect((await post(DECISION, { action: 'approve' })).status).toBe(401);
    const cookie = (await get('/?token=bo-secret-22')).headers.get('set-cookie')!.split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await get('/', { cookie })).text())![1];
    const response = await post(DECISION, { csrf, action: 'approve', by: 'mallory' }, { cookie });
    expect(response.status).toBe(200);
    expect((await refunds.get('wf-1', { store })).audit).toMatchObject([
      { action: 'approve', by: 'bo' },
    ]);
    await worker.drain();
    expect(executions.refund).toBe(1);
  });

  it('shows a run’s history as a timeline: steps, tool calls, waits and durations', async () => {
    const { refunds, napper, worker, store, get, post, csrfOf } = setup();
    await refunds.start('o-5', { store, runId: 'wf-1' });
    await napper.start(undefined, { store, runId: 'wf-nap' });
    await worker.drain();
    await post(DECISION, { csrf: await csrfOf(), action: 'approve', by: 'ana' });
    await worker.drain();
    const done = await (await get('/workflows/wf-1')).text();
    expect(done).toContain(
      'Workflow <span class="workflow-id">refunds</span>: <span id="run-status" data-status="done">done</span>',
    );
    const rows = [
      ...done.matchAll(
        /<tr class="entry (\w+) (\w+)"><td>([^<]+)<\/td><td><code><span class="id" title="([^"]+)">([^<]+)<\/span><\/code>/g,
      ),
    ].map((m) => [m[3], m[5], m[4], m[2]]);
    expect(rows).toEqual([
      ['step', 'load-order', 'load-order', 'done'],
      ['tool call', 'refund', '$call:refund', 'done'],
    ]);
    expect(done).toMatch(/<td class="duration">\d+ ms<\/td>/);
    expect(done).toContain('refunded o-5');
    expect(done).toMatch(
      /<td>approve<\/td><td><span class="id" title="\$call:refund">refund<\/span><\/td><td>ana \(unverified\)<\/td>/,
    );
    expect(done).toContain('data-final="true"');

    const napping = await (await get('/workflows/wf-nap')).text();
    expect(napping).toMatch(
      /<tr class="entry sleep waiting"><td>sleep<\/td><td><code><span class="id" title="nap">nap<\/span><\/code>/,
    );
    expect(napping).toMatch(/<td class="duration">waiting until \d{4}-\d\d-\d\dT/);
    expect(napping).toContain('waits on timer until');
    expect(napping).toContain('<span id="run-status" data-status="waiting">sleeping</span>');
    expect(napping).toContain('data-final="false"');
    expect((await get('/workflows/nope')).status).toBe(404);
  });

  it('lists workflow runs under the status filters, newest first', async () => {
    const { refunds, napper, worker, store, get } = setup();
    await refunds.start('o-6', { store, runId: 'wf-1' });
    await napper.start(undefined, { store, runId: 'wf-nap' });
    await worker.drain();
    const running = await (await get('/?status=running')).text();
    expect(running).toContain('Workflow runs');
    expect([...running.matchAll(/<a href="\/workflows\/([^"]+)">/g)].map((m) => m[1])).toEqual([
      'wf-nap',
      'wf-1',
    ]);
    expect(running).toContain(
      '<td>waiting for a decision</td><td>a decision on <span class="id" title="$call:refund">refund</span></td>',
    );
    expect(running).not.toContain('>$call:refund<');
    expect(await (await get('/?status=done')).text()).toContain('No runs.');
    expect(await (await get('/?status=all')).text()).toContain('href="/workflows/wf-nap"');
  });

  it('without workflows, has no workflow pages; a wrong workflows option is refused', async () => {
    const handle = inbox({ session: session({ store: memoryStore() }) });
    expect((await handle(new Request(`${ORIGIN}/workflows/wf-1`))).status).toBe(404);
    expect(() =>
      inbox({
        session: session({ store: memoryStore() }),
        workflows: memoryWorkflowStore() as unknown as InboxWorkflows,
      }),
    ).toThrow(
      'inbox({ workflows }): expected workflow runs (workflowRuns(store) from fino:workflow), received a workflow store',
    );
  });
});
