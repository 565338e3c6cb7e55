import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CALL_STATE_TTL_SECONDS,
  CallStateCodec,
} from '../../../../src/ai/mcp/server/call-state.ts';

describe('CallStateCodec', () => {
  const codec = new CallStateCodec();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens a state it sealed for the same tool and arguments', async () => {
    const sealed = await codec.seal('remove', { id: 'r1' }, { approved: true, question: 'Sure?' });
    expect(await codec.open(sealed, 'remove', { id: 'r1' })).toEqual({
      approved: true,
      question: 'Sure?',
    });
  });

  it('refuses a state replayed for other arguments or another tool', async () => {
    const sealed = await codec.seal('remove', { id: 'r1' }, { approved: true });
    expect(await codec.open(sealed, 'remove', { id: 'r2' })).toBeUndefined();
    expect(await codec.open(sealed, 'wipe', { id: 'r1' })).toBeUndefined();
  });

  it('refuses forged, tampered or foreign states', async () => {
    const sealed = await codec.seal('remove', {}, { approved: false });
    const dot = sealed.lastIndexOf('.');
    const [body, mac] = [sealed.slice(0, dot), sealed.slice(dot + 1)];
    const forged = Buffer.from(
      JSON.stringify({ p: { approved: true, tool: 'remove', args: '{}' }, exp: 2 ** 40 }),
    ).toString('base64url');
    expect(await codec.open(`v1.${forged}.${mac}`, 'remove', {})).toBeUndefined();
    expect(
      await codec.open(`${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`, 'remove', {}),
    ).toBeUndefined();
    const foreign = await new CallStateCodec().seal('remove', {}, { approved: true });
    expect(await codec.open(foreign, 'remove', {})).toBeUndefined();
    expect(await codec.open('garbage', 'remove', {})).toBeUndefined();
    expect(await codec.open('v1.%%%.%%%', 'remove', {})).toBeUndefined();
    expect(await codec.open(undefined, 'remove', {})).toBeUndefined();
  });

  it('refuses a state older than its time to live (an approval does not last forever)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-03T12:00:00Z'));
    const sealed = await codec.seal('remove', {}, { approved: true });
    vi.setSystemTime(new Date(Date.now() + (CALL_STATE_TTL_SECONDS - 1) * 1000));
    expect(await codec.open(sealed, 'remove', {})).toEqual({ approved: true });
    vi.setSystemTime(new Date(Date.now() + 2000));
    expect(await codec.open(sealed, 'remove', {})).toBeUndefined();
  });
});
