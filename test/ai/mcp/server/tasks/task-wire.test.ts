/** The wire form of stored MCP tasks: statuses, `Task` objects, owners, ttl and cursors. */

import { describe, expect, it } from 'vitest';
import type { McpTaskRecord } from '../../../../../src/ai/mcp/index.ts';
import {
  decodeCursor,
  encodeCursor,
  ownerOf,
  taskStatus,
  taskTtl,
  toTask,
} from '../../../../../src/ai/mcp/server/tasks/task-wire.ts';
import { sha256Hex } from '../../../../../src/internal/sha256.ts';

const record = (run: Partial<McpTaskRecord['run']>, statusMessage?: string): McpTaskRecord => ({
  taskId: 'task_1',
  ownerKey: 'anonymous',
  toolName: 'report',
  arguments: {},
  ttlMs: 60_000,
  createdAt: Date.UTC(2026, 11, 3, 12),
  ...(statusMessage !== undefined && { statusMessage }),
  run: {
    runId: 'task_1',
    status: 'running',
    input: '',
    pending: [],
    createdAt: Date.UTC(2026, 11, 3, 12),
    updatedAt: Date.UTC(2026, 11, 3, 12, 5),
    ...run,
  },
});

describe('taskStatus', () => {
  it.each([
    ['running', 'working'],
    ['ready', 'working'],
    ['suspended', 'input_required'],
    ['done', 'completed'],
    ['error', 'failed'],
    ['cancelled', 'cancelled'],
  ] as const)('reads a %s run as %s', (run, task) => {
    expect(taskStatus(run)).toBe(task);
  });
});

describe('toTask', () => {
  it('gives times in ISO 8601, the ttl, and a poll interval while the task can change', () => {
    expect(toTask(record({}, 'halfway'), 500)).toEqual({
      taskId: 'task_1',
      status: 'working',
      createdAt: '2026-12-03T12:00:00.000Z',
      lastUpdatedAt: '2026-12-03T12:05:00.000Z',
      ttl: 60_000,
      pollInterval: 500,
      statusMessage: 'halfway',
    });
    expect(toTask(record({ status: 'done' }), 500).pollInterval).toBeUndefined();
  });

  it('says why a failed task failed', () => {
    const task = toTask(record({ status: 'error', error: 'interrupted' }, 'stage 2'), 500);
    expect(task).toMatchObject({ status: 'failed', statusMessage: 'interrupted' });
  });
});

describe('ownerOf', () => {
  const ctx = (extra: object) => extra as Parameters<typeof ownerOf>[0];
  const auth = (clientId: string, token: string, sub?: unknown) => ({
    http: {
      authInfo: { clientId, token, scopes: [], ...(sub === undefined ? {} : { extra: { sub } }) },
    },
  });
  it('binds to the principal: the subject within its application, else the token (hashed)', () => {
    expect(ownerOf(ctx({ sessionId: 's', ...auth('app', 't', 'ana') }))).toEqual({
      ownerKey: 'auth:["app","sub","ana"]',
      sessionId: 's',
    });
    const { ownerKey } = ownerOf(ctx(auth('app', 't')));
    expect(ownerKey).toBe(`auth:["app","token","${sha256Hex('t')}"]`);
    expect(ownerKey).not.toContain('"t"'); // the token itself is never stored
  });

  it('never gives two principals of one application, or ambiguous parts, the same owner', () => {
    const keys = [
      auth('app', 'token-of-ana'),
      auth('app', 'token-of-bob'),
      auth('app', 't', 'x:y'),
      auth('app:x', 't', 'y'),
      auth('app', 't', 'token'),
      auth('app', 't', ''), // an empty subject is no subject: the token decides
      auth('app', 't', 42), // a subject that is not a string: the token decides
    ].map((a) => ownerOf(ctx(a)).ownerKey);
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys[5]).toBe(keys[6]);
    expect(keys[5]).toBe(ownerOf(ctx(auth('app', 't'))).ownerKey);
  });

  it('is the anonymous client otherwise', () => {
    expect(ownerOf(ctx({}))).toEqual({ ownerKey: 'anonymous' });
  });
});

describe('taskTtl', () => {
  it('cuts the asked ttl to the maximum, which is also the default', () => {
    expect(taskTtl({ ttl: 1000.2 }, 5000)).toBe(1001);
    expect(taskTtl({ ttl: 9e15 }, 5000)).toBe(5000);
    expect(taskTtl({}, 5000)).toBe(5000);
    expect(taskTtl({ ttl: null }, 5000)).toBe(5000);
  });

  it.each([
    ['a string', 'x', /expected an object such as \{ "ttl": 60000 \}, received string/],
    ['null', null, /received null/],
    ['an array', [], /received an array/],
    ['a negative ttl', { ttl: -1 }, /expected a positive number of milliseconds, received -1/],
    ['a text ttl', { ttl: '5' }, /received string/],
  ])('refuses %s with -32602', (_name, task, message) => {
    expect(() => taskTtl(task, 5000)).toThrow(message);
    try {
      taskTtl(task, 5000);
    } catch (error) {
      expect((error as { code: number }).code).toBe(-32602);
    }
  });
});

it('round-trips a cursor, and refuses one it did not make', () => {
  const cursor = { createdAt: 1_700_000_000_000, taskId: 'task_9' };
  expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  expect(decodeCursor(undefined)).toBeUndefined();
  for (const bad of [42, 'garbage', Buffer.from('["x", 1]').toString('base64url')]) {
    expect(() => decodeCursor(bad)).toThrow(/Invalid cursor/);
  }
});
