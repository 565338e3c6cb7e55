/**
 * The conformance suite's client under test: `mcpClient()` against the scenario's server.
 * The suite runs `node --import tsx everything-client.ts <server-url>` with the scenario's
 * name in MCP_CONFORMANCE_SCENARIO and its credentials, if any, in MCP_CONFORMANCE_CONTEXT.
 */
import { mcpClient, memoryTokenStore, oauth } from '../../../../src/ai/mcp/index.ts';

const url = process.argv[process.argv.length - 1];
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
};
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

const client = mcpClient({
  url,
  auth: oauth({
    store: memoryTokenStore(),
    clientName: 'fino-conformance',
    redirectUrl: 'http://localhost:3000/callback',
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    ...(context.client_id
      ? { clientId: context.client_id, clientSecret: context.client_secret }
      : {}),
    ...(context.private_key_pem
      ? { privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm }
      : {}),
    ...(scenario.includes('client-credentials') ? { grant: 'client_credentials' as const } : {}),
    // The suite's authorization server approves at once: follow its redirect by hand.
    authorize: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      return response.headers.get('location') ?? '';
    },
  }),
  // Accept every form as it is: mcpClient fills in the form's defaults.
  onElicit: () => ({ action: 'accept', content: {} }),
  onWarning: () => undefined,
});
try {
  for (const tool of await client.tools()) {
    const args = tool.name === 'add_numbers' ? { a: 2, b: 3 } : {};
    const result = await tool.invoke(args);
    console.log(tool.name, JSON.stringify(result));
  }
} finally {
  await client.close();
}
