import { describe, expect, it } from 'vitest';
import { CallStateSigner } from '../../../src/ai/mcp/call-state.ts';

describe('CallStateSigner', () => {
  const signer = new CallStateSigner();

  it('verifies a state it signed for the same tool and arguments', () => {
    const token = signer.sign('remove', { id: 'r1' }, { approved: true, question: 'Sure?' });
    expect(signer.verify(token, 'remove', { id: 'r1' })).toEqual({
      approved: true,
      question: 'Sure?',
    });
  });

  it('refuses a state replayed for other arguments or another tool', () => {
    const token = signer.sign('remove', { id: 'r1' }, { approved: true });
    expect(signer.verify(token, 'remove', { id: 'r2' })).toBeUndefined();
    expect(signer.verify(token, 'wipe', { id: 'r1' })).toBeUndefined();
  });

  it('refuses forged, tampered or foreign states', () => {
    const token = signer.sign('remove', {}, { approved: false });
    const [body, mac] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ approved: true, tool: 'remove', args: '{}' }),
    ).toString('base64url');
    expect(signer.verify(`${forged}.${mac}`, 'remove', {})).toBeUndefined();
    expect(signer.verify(`${body}.x${mac.slice(1)}`, 'remove', {})).toBeUndefined();
    expect(
      signer.verify(new CallStateSigner().sign('remove', {}, { approved: true }), 'remove', {}),
    ).toBeUndefined();
    expect(signer.verify('garbage', 'remove', {})).toBeUndefined();
    expect(signer.verify(undefined, 'remove', {})).toBeUndefined();
  });
});
