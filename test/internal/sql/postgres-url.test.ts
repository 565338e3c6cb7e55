import { describe, expect, it } from 'vitest';
import { postgresStore, SessionError } from '../../../src/ai/session/index.ts';
import { multiHostTarget } from '../../../src/internal/sql/postgres-url.ts';
import { postgresWorkflowStore, WorkflowError } from '../../../src/workflow/index.ts';

describe('multiHostTarget', () => {
  it('leaves a URL of one server, without target_session_attrs, to pg', () => {
    expect(multiHostTarget('postgres://u:p@db.example:5432/app?sslmode=require')).toBeUndefined();
    expect(multiHostTarget('postgres://u@/app?host=/var/run/postgresql')).toBeUndefined();
    expect(multiHostTarget('not a url')).toBeUndefined();
  });

  it('splits the host part into one URL per server, keeping user, database and other parameters', () => {
    expect(
      multiHostTarget(
        'postgresql://u:p%40ss@h1:5432,[::1]:5433,h3/app?target_session_attrs=read-write&sslmode=require',
      ),
    ).toEqual({
      target: 'read-write',
      servers: [
        { label: 'h1:5432', url: 'postgresql://u:p%40ss@h1:5432/app?sslmode=require' },
        { label: '[::1]:5433', url: 'postgresql://u:p%40ss@[::1]:5433/app?sslmode=require' },
        { label: 'h3', url: 'postgresql://u:p%40ss@h3/app?sslmode=require' },
      ],
    });
  });

  it('reads host and port parameters: one port for all hosts, or one per host', () => {
    expect(multiHostTarget('postgres://u@/app?host=a,b&port=5433')?.servers).toEqual([
      { label: 'a:5433', url: 'postgres://u@a:5433/app' },
      { label: 'b:5433', url: 'postgres://u@b:5433/app' },
    ]);
    expect(multiHostTarget('postgres:///app?host=a,::1&port=1,2')?.servers).toEqual([
      { label: 'a:1', url: 'postgres://a:1/app' },
      { label: '[::1]:2', url: 'postgres://[::1]:2/app' },
    ]);
  });

  it('takes target_session_attrs on one server too, any by default', () => {
    expect(multiHostTarget('postgres://h/app?target_session_attrs=primary')?.target).toBe(
      'primary',
    );
    expect(multiHostTarget('postgres://h1,h2/app')?.target).toBe('any');
  });

  it.each([
    [
      'postgres://h1,h2/app?target_session_attrs=standby',
      'target_session_attrs=standby picks a server the store cannot write to, and a store writes: use read-write (or primary, or any)',
    ],
    [
      'postgres://h1,h2/app?target_session_attrs=writable',
      'target_session_attrs: expected one of any, read-write, primary, received "writable"',
    ],
    [
      'postgres://u@/app?host=a,b,c&port=1,2',
      'port lists 2 ports for 3 hosts: give one port for all of them, or one per host',
    ],
    ['postgres://h1:99999,h2/app', 'expected a port number from 1 to 65535, received "99999"'],
    [
      'postgres://u@/app?host=/tmp,h2',
      'a Unix socket directory (/tmp) cannot be one of several servers: list TCP addresses (host:port), or give one server',
    ],
  ])('refuses %s, saying why', (url, message) => {
    expect(() => multiHostTarget(url)).toThrow(message);
  });
});

describe('the PostgreSQL stores’ constructors', () => {
  it('refuse a multi-host URL they cannot use with INVALID_ARGUMENT, at construction', () => {
    const url = 'postgresql://h1,h2/app?target_session_attrs=read-only';
    expect(() => postgresStore(url)).toThrow(SessionError);
    expect(() => postgresStore(url)).toThrow(
      /^postgresStore\(urlOrPool\): target_session_attrs=read-only picks a server the store cannot write to/,
    );
    expect(() => postgresWorkflowStore(url)).toThrow(WorkflowError);
  });

  it('check the timeouts, and refuse them with a pool of the caller’s (it has its own)', () => {
    expect(() => postgresStore('postgres://h/app', { queryTimeoutMs: 0 })).toThrow(
      /postgresStore: queryTimeoutMs: expected/,
    );
    expect(() => postgresStore('postgres://h/app', { connectTimeoutMs: 2 ** 31 })).toThrow(
      RangeError,
    );
    const pool = {
      query: async () => ({ rows: [] }),
      connect: async () => ({}) as never,
      end: async () => {},
    };
    expect(() => postgresWorkflowStore(pool, { keepAliveDelayMs: 1_000 })).toThrow(
      'postgresWorkflowStore: the timeout options (keepAliveDelayMs) are for the pool the store opens from a URL; a pg.Pool you pass has its own (connectionTimeoutMillis, query_timeout, keepAlive)',
    );
  });
});
