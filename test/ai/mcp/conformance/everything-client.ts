/**
 * The conformance suite's client under test: `mcpClient()` against the scenario's server.
 * The suite runs `node --import tsx everything-client.ts <server-url>` with the scenario's
 * name in MCP_CONFORMANCE_SCENARIO.
 */
import { httpTransport, mcpClient } from '../../../../src/ai/mcp/index.ts';

const url = process.argv[process.argv.length - 1];
const client = mcpClient({
  transport: httpTransport({ url }),
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
