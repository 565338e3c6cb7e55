import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultAllowedHosts } from '../../../../../src/ai/mcp/server/http/listen.ts';

describe('the Host names a server answers to by default', () => {
  it('are the loopback names when bound to loopback', () => {
    expect(defaultAllowedHosts('127.0.0.1')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(defaultAllowedHosts('::1')).toEqual(['localhost', '127.0.0.1', '[::1]']);
  });

  it('add the bound name for one interface', () => {
    expect(defaultAllowedHosts('192.168.1.5')).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
      '192.168.1.5',
    ]);
    expect(defaultAllowedHosts('fe80::1')).toContain('[fe80::1]');
  });

  it("add this machine's name and addresses when bound to every interface", () => {
    const allowed = defaultAllowedHosts('0.0.0.0');
    expect(allowed).toContain(hostname());
    expect(allowed).toContain('127.0.0.1');
    expect(allowed).not.toContain('0.0.0.0');
  });
});
