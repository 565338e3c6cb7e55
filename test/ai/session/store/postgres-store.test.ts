import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../../../src/ai/session/index.ts';
import { MIGRATIONS } from '../../../../src/ai/session/store/migrations.ts';
import { sqlStore } from '../../../../src/ai/session/store/sql-store.ts';
import { postgresDriver } from '../../../../src/internal/sql/index.ts';
import { freshSchema } from '../../../helpers/postgres.ts';
import { postgresForTests } from '../../../helpers/postgres-for-tests.ts';
import { checkTokenMigration, storeConformance, suspended } from './store-conformance.ts';

const postgres = postgresForTests();

/** A client whose unqualified `fino_*` names resolve in `schema`. */
async function rawClient(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

storeConformance(
  'postgres',
  async () => {
    const server = await postgres();
    if (!server) return undefined;
    const url = server.url;
    const schema = await freshSchema(url);
    const client = await rawClient(url, schema);
    return {
      store: postgresStore(url, { schema }),
      reopen: () => postgresStore(url, { schema }),
      sql: async (query, params = []) => (await client.query(query, params)).rows,
      close: () => client.end(),
    };
  },
  { rawAccess: true },
);

describe('postgresStore', () => {
  let url: string;
  beforeAll(async () => {
    await postgres();
  });
  const pgIt = (title: string, body: () => Promise<void>) =>
    it(title, async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      url = server.url;
      await body();
    });

  pgIt('lets one of two approvals racing on two connections win', async () => {
    const schema = await freshSchema(url);
    const a = postgresStore(url, { schema });
    const b = postgresStore(url, { schema });
    try {
      for (let round = 0; round < 5; round++) {
        const { tokens } = await suspended(a, ['call']);
        const results = await Promise.allSettled([
          a.decide(tokens[0], { approve: true }, { by: 'a' }),
          b.decide(tokens[0], { approve: true }, { by: 'b' }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason).toMatchObject({ code: 'ALREADY_DECIDED' });
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  pgIt('migrates once when several stores open a fresh schema at the same time', async () => {
    const schema = await freshSchema(url);
    const stores = Array.from({ length: 4 }, () => postgresStore(url, { schema }));
    try {
      await Promise.all(stores.map((s) => s.get('x')));
      const client = await rawClient(url, schema);
      const { rows } = await client.query('SELECT version FROM fino_migrations');
      await client.end();
      expect(rows).toHaveLength(MIGRATIONS.length);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  pgIt('uses a pool it is given and leaves it open', async () => {
    const schema = await freshSchema(url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const store = postgresStore(pool, { schema });
    expect(await store.get('x')).toBeUndefined();
    await store.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  pgIt('migrates a database with plain tokens to hashes in place', async () => {
    const schema = await freshSchema(url);
    const client = await rawClient(url, schema);
    const numbered = (query: string) => {
      let n = 0;
      return query.replace(/\?/g, () => `$${++n}`);
    };
    try {
      await checkTokenMigration(
        'postgres',
        (query, params = []) => client.query(numbered(query), params),
        () => postgresStore(url, { schema }),
        async (query) => (await client.query(query)).rows,
      );
    } finally {
      await client.end();
    }
  });

  it('refuses a schema name that is not an identifier, and a non-pool', () => {
    expect(() => postgresStore('postgres://x', { schema: 'a; DROP TABLE b' })).toThrow(
      /plain identifier/,
    );
    expect(() => postgresStore({} as never)).toThrow(
      'postgresStore(urlOrPool): expected a postgres:// URL or a pg.Pool, received an object that is not a pg.Pool',
    );
    expect(() => postgresStore(42 as never)).toThrow(/received number$/);
  });

  it('opens nothing until first used, and names the command that installs pg when it is missing', async () => {
    const missing = async (name: string) => {
      throw Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const store = sqlStore(
      postgresDriver('postgres://127.0.0.1:1/none', {
        store: 'postgresStore()',
        database: 'the session database',
        importer: missing,
      }),
    );
    await expect(store.list()).rejects.toMatchObject({
      code: 'DRIVER_MISSING',
      message:
        'postgresStore() needs the "pg" package, which is not installed; install it with: npm install pg',
    });
    await store.close(); // nothing was opened, nothing to end
  });
});
