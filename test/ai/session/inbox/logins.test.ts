import { describe, expect, it } from 'vitest';
import { loginTable, MAX_LOGINS } from '../../../../src/ai/session/inbox/logins.ts';

describe('the inbox logins', () => {
  it('end after their lifetime', () => {
    let now = 1_000;
    const logins = loginTable(60_000, MAX_LOGINS, () => now);
    const login = logins.open('ana');
    expect(login.id).toMatch(/^[\w-]{43}$/);
    expect(logins.find(login.id)).toEqual({ id: login.id, approver: 'ana', expiresAt: 61_000 });
    now = 60_999;
    expect(logins.find(login.id)).toBeDefined();
    now = 61_000;
    expect(logins.find(login.id)).toBeUndefined();
    expect(logins.size).toBe(0);
    expect(logins.find(undefined)).toBeUndefined();
  });

  it('are bounded: past the limit expired ones go first, then the oldest', () => {
    let now = 0;
    const logins = loginTable(100, 3, () => now);
    const first = logins.open(undefined);
    now = 50;
    const [second, third] = [logins.open(undefined), logins.open(undefined)];
    now = 120; // the first has expired, the others not
    const fourth = logins.open(undefined);
    expect(logins.size).toBe(3);
    expect(logins.find(first.id)).toBeUndefined();
    const fifth = logins.open(undefined);
    expect(logins.size).toBe(3);
    expect(logins.find(second.id)).toBeUndefined(); // the oldest live one made room
    for (const login of [third, fourth, fifth]) expect(logins.find(login.id)).toBeDefined();
    expect(MAX_LOGINS).toBe(1_000);
  });

  it('close on log-out', () => {
    const logins = loginTable(60_000);
    const login = logins.open(undefined);
    logins.close(login.id);
    expect(logins.find(login.id)).toBeUndefined();
  });
});
