/**
 * A real failover (issue 32, item 2): a primary with a synchronous hot standby
 * (`pg_basebackup -R`), the primary stopped hard, the standby promoted. A store given a
 * multi-host URL listing both servers (`target_session_attrs=read-write`) finds the new
 * primary by itself and carries on, without any change of configuration.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { postgresStore, session } from '../../../src/ai/session/index.ts';
import { postgresWorkflowStore } from '../../../src/workflow/index.ts';
import { freshSchema, startStandby } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';

// This file's own server, durable: the test stops it as a crash does.
const postgres = postgresForTests({ durable: true });

const portOf = (url: string) => new URL(url).port;
/** A session over `store` whose one model turn answers `text`. */
const answering = (store: ReturnType<typeof postgresStore>, text: string) =>
  session({ store, agent: agent({ model: scriptedModel([text]) }) });

describe('a store on a multi-host URL through a failover', () => {
  it('carries on against the promoted standby: runs started before and during the failover are there and done', async (ctx) => {
    const primary = await postgres();
    if (!primary?.faults) return ctx.skip(); // no server, or one this test may not stop
    const schema = await freshSchema(primary.url); // copied to the standby with the rest
    const standby = await startStandby(primary);
    if (!standby) return ctx.skip();
    const url = `postgresql://postgres@127.0.0.1:${portOf(primary.url)},127.0.0.1:${portOf(standby.url)}/postgres?target_session_attrs=read-write`;
    const store = postgresStore(url, { schema, connectTimeoutMs: 2_000 });
    const workflows = postgresWorkflowStore(url, { schema, connectTimeoutMs: 2_000 });
    try {
      expect(await answering(store, 'Before.').start('one', { runId: 'before' })).toMatchObject({
        status: 'done',
        text: 'Before.',
      });
      expect(await workflows.list()).toEqual([]);
      await primary.faults.halt(); // as a crash: every connection cut, nothing shut down cleanly
      // Started while no server accepts writes: retried until the standby is promoted.
      const during = answering(store, 'During.').start('two', { runId: 'during' });
      await sleep(500);
      await standby.promote();
      expect(await during).toMatchObject({ status: 'done', text: 'During.' });
      expect(await store.get('before')).toMatchObject({ status: 'done', text: 'Before.' });
      expect(await workflows.list()).toEqual([]);
    } finally {
      await store.close();
      await workflows.close();
      await standby.stop();
    }
  }, 120_000);
});
