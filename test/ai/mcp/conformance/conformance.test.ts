/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, pinned)
 * against fino: its server scenarios against the everything server (written with the
 * public API), its client scenarios against `mcpClient()`. The CLI runs as a real process
 * (./cli.ts); conformance-next.test.ts runs the newer 0.2.0-alpha.12 the same way.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/temp-dir.ts';
import {
  conformanceCli,
  everythingUnderTest,
  passesClientScenario,
  serverScenarios,
} from './cli.ts';

const runs = tempDir('conformance');
const conformance = conformanceCli('@modelcontextprotocol/conformance', runs);

describe('the MCP conformance suite', () => {
  const underTest = everythingUnderTest(runs);

  it('passes every server scenario (32 of 32) against the everything server', async () => {
    const found = await serverScenarios(conformance, underTest.url);
    expect(found.size).toBe(32);
    expect([...found].filter(([, ok]) => !ok).map(([name]) => name)).toEqual([]);
  }, 120_000);

  // The client scenarios mcpClient() passes: 24 of 26, one run each. sse-retry (passed,
  // but it measures reconnection delays, which a loaded machine distorts) is left out of
  // the test suite; the two left failing are written down in docs/mcp.md.
  it.each([
    'initialize',
    'tools_call',
    'elicitation-sep1034-client-defaults',
    'auth/metadata-default',
    'auth/metadata-var1',
    'auth/metadata-var2',
    'auth/metadata-var3',
    'auth/basic-cimd',
    'auth/scope-from-www-authenticate',
    'auth/scope-from-scopes-supported',
    'auth/scope-omitted-when-undefined',
    'auth/scope-step-up',
    'auth/scope-retry-limit',
    'auth/token-endpoint-auth-basic',
    'auth/token-endpoint-auth-post',
    'auth/token-endpoint-auth-none',
    'auth/pre-registration',
    'auth/2025-03-26-oauth-endpoint-fallback',
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'auth/client-credentials-jwt',
    'auth/client-credentials-basic',
  ])(
    'passes the client scenario %s with mcpClient()',
    passesClientScenario(conformance, underTest),
    120_000,
  );
});
