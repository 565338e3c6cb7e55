/**
 * The newest published MCP conformance suite, 0.2.0-alpha.12 (pinned; installed as
 * `mcp-conformance-next` beside 0.1.16, which conformance.test.ts runs), against fino: its
 * 65 server scenarios against the everything server, its 48 client scenarios against
 * `mcpClient()`. Each test names the scenarios expected to pass on this branch; the
 * reference implementations (the suite's own TypeScript server and client) pass 54 and
 * 43. What is left, and who takes it, is in docs/mcp.md ("Conformance").
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/temp-dir.ts';
import {
  conformanceCli,
  everythingUnderTest,
  passesClientScenario,
  serverScenarios,
} from './cli.ts';

const runs = tempDir('conformance-next');
const conformance = conformanceCli('mcp-conformance-next', runs);

/**
 * The server scenarios fino passes: every one the reference server passes (54 of 65;
 * it fails the nine tasks-* scenarios and the two http-*-header-validation ones), and
 * eight it fails besides (http-header-validation and seven tasks-*, among them
 * tasks-mrtr-input and tasks-dispatch-and-envelope: a task's questions on tasks/get,
 * its answers through tasks/update, decision 242; tasks-required-task-error: -32021
 * for a task-only tool called without the opt-in, decision 244). Not yet here:
 * - http-custom-header-server-validation (fino's server does not check `Mcp-Param-*`
 *   headers against the arguments yet, docs/mcp.md);
 * - two tasks-* scenarios of the Tasks extension (SEP-2663, decision 214):
 *   tasks-lifecycle (protocol_error_job: a fino task tool cannot end in a protocol
 *   error), tasks-mrtr-composition (a task tool that asks by input-required result
 *   before its task is created).
 */
const serverPasses = [
  'server-stateless',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-request-state',
  'input-required-result-multi-round',
  'input-required-result-result-type',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'server-initialize',
  'server-session-lifecycle',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'sep-2164-resource-not-found',
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
  'caching',
  'http-header-validation',
  'tasks-status-notifications',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-request-headers',
  'tasks-mrtr-input',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'input-required-result-missing-input-response',
  'input-required-result-unsupported-methods',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
  'input-required-result-non-tool-request',
  'input-required-result-basic-list-roots',
  'input-required-result-multiple-input-requests',
];

/**
 * The client scenarios mcpClient() passes, one run each: every check, and the client
 * exits cleanly — 39 here, and 44 of 48 in the suite's own count (the reference client:
 * 43). Left out though they pass: sse-retry (it times reconnection delays, which a loaded
 * machine distorts) and the four sep-2640-client-* scenarios (extension scenarios that
 * record no check yet). Failing, features fino does not have (docs/mcp.md): auth/dpop,
 * auth/dpop-nonce (DPoP, SEP-1932), auth/enterprise-managed-authorization (SEP-990) and
 * auth/wif-jwt-bearer (workload identity).
 */
const clientPasses = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'request-metadata',
  'auth/scope-retry-limit',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/offline-access-scope',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-unexpected',
  'auth/2025-03-26-oauth-metadata-backcompat',
];

describe('the MCP conformance suite 0.2.0-alpha.12', () => {
  const underTest = everythingUnderTest(runs);

  it('passes the expected server scenarios against the everything server', async () => {
    const found = await serverScenarios(conformance, underTest.url, serverPasses);
    expect(found.size).toBe(65);
    expect(serverPasses.filter((name) => found.get(name) !== true)).toEqual([]);
    const newlyPassing = [...found].filter(([name, ok]) => ok && !serverPasses.includes(name));
    if (newlyPassing.length > 0) {
      console.info(`conformance: also passing now: ${newlyPassing.map(([name]) => name)}`);
    }
  }, 120_000);

  it.each(clientPasses)(
    'passes the client scenario %s with mcpClient()',
    passesClientScenario(conformance, underTest),
    120_000,
  );
});
