/**
 * The conformance suite's client under test: `mcpClient()` against the scenario's server.
 * The suite runs `node --import tsx everything-client.ts <server-url>` (the tests run a
 * bundle of it, ./cli.ts) with the scenario's name in MCP_CONFORMANCE_SCENARIO and its
 * credentials and the calls it asks for, if any, in MCP_CONFORMANCE_CONTEXT.
 */
import { mcpClient, memoryTokenStore, oauth } from '../../../../src/ai/mcp/index.ts';
import type { Tool } from '../../../../src/ai/tool/index.ts';

const url = process.argv[process.argv.length - 1];
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  /** Calls the scenario asks for (0.2: http-custom-headers), with their arguments. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
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
/** A value of a JSON Schema property's type, for a required argument no scenario names. */
function sampleValue(property: { type?: unknown }): unknown {
  if (property.type === 'number' || property.type === 'integer') return 1;
  if (property.type === 'boolean') return true;
  return 'test';
}

/** The arguments to call `tool` with: the scenario's own, else what its schema requires. */
function argumentsFor(tool: Tool, tools: Tool[]): Record<string, unknown> {
  const asked = context.toolCalls?.find((call) => call.name === tool.name);
  // mcpClient checks arguments against the tool's schema before it sends them, and the
  // scenario's `verbose: null` is no boolean: send the call without it (what the check
  // asks of a null or absent argument is the same: no Mcp-Param-Verbose header).
  if (asked) {
    return Object.fromEntries(Object.entries(asked.arguments).filter(([, v]) => v !== null));
  }
  if (tool.name === 'add_numbers') return { a: 2, b: 3 };
  // json-schema-2020-12-preservation: echo the other tool's schema exactly as listed.
  if (tool.name === 'json_schema_echo') {
    return { schema: tools.find((other) => other.name === 'json_schema_2020_12_tool')?.parameters };
  }
  const { properties = {}, required = [] } = tool.parameters as {
    properties?: Record<string, { type?: unknown }>;
    required?: string[];
  };
  return Object.fromEntries(required.map((name) => [name, sampleValue(properties[name] ?? {})]));
}

try {
  const tools = await client.tools();
  for (const tool of tools) {
    const result = await tool.invoke(argumentsFor(tool, tools));
    console.log(tool.name, JSON.stringify(result));
  }
} finally {
  await client.close();
}
