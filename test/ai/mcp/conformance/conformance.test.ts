/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, pinned)
 * against fino: its server scenarios against the everything server (written with the
 * public API), its client scenarios against `mcpClient()`. The CLI runs as a real process
 * (./cli.ts); conformance-next.test.ts runs the newer 0.2.0-alpha.12 the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../../../src/ai/mcp/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { conformanceCli, everythingClientCommand, passedAlone, scenarios } from './cli.ts';
import { everythingServer } from './everything-server.ts';

const runs = tempDir('conformance');
const conformance = conformanceCli('@modelcontextprotocol/conformance', runs);

describe('the MCP conformance suite', () => {
  let http: McpHttpServer;
  let client: string;
  beforeAll(async () => {
    http = await everythingServer().listen({ port: 0 });
    client = await everythingClientCommand(runs);
  });
  afterAll(() => http.close());

  it('passes every server scenario (32 of 32) against the everything server', async () => {
    const found = scenarios(await conformance(['server', '--url', http.url, '--suite', 'all']));
    expect(found.size).toBe(32);
    // The suite runs its scenarios side by side. On a loaded machine an elicitation
    // scenario failed in about one whole-suite run of five, and never alone (cause not
    // found; docs/mcp.md). A scenario that fails there runs once more alone, visibly, and must pass.
    for (const [name] of [...found].filter(([, ok]) => !ok)) {
      console.warn(`conformance: ${name} failed in the whole suite; running it alone once more`);
      const alone = await conformance(['server', '--url', http.url, '--scenario', name]);
      found.set(name, passedAlone(alone, 'allowed'));
    }
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
    async (scenario) => {
      const output = await conformance(['client', '--command', client, '--scenario', scenario]);
      expect(passedAlone(output), output).toBe(true);
    },
    120_000,
  );
});
