/**
 * The JSON an MCP client's configuration needs to reach the workspace server, in the
 * shapes Claude Desktop / Cursor (`mcpServers`) and VS Code (`servers`) read.
 */

/** Configuration snippets for an HTTP endpoint, with the bearer token when there is one. */
export function configSnippets(name: string, url: string, token?: string): string {
  const headers = token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } };
  const mcpServers = { mcpServers: { [name]: { url, ...headers } } };
  const vscode = { servers: { [name]: { type: 'http', url, ...headers } } };
  return [
    'Claude Desktop / Cursor (mcpServers in their JSON configuration):',
    JSON.stringify(mcpServers, null, 2),
    '',
    'VS Code (.vscode/mcp.json):',
    JSON.stringify(vscode, null, 2),
  ].join('\n');
}
