/**
 * The JSON an MCP client's configuration needs to reach the workspace server over HTTP:
 * Cursor (`mcpServers` with a `url`), VS Code (`servers` with `type: 'http'`), and
 * Claude Desktop, whose configuration file starts stdio servers, through the
 * `mcp-remote` bridge.
 */

/** Configuration snippets for an HTTP endpoint, with the bearer token when there is one. */
export function configSnippets(name: string, url: string, token?: string): string {
  const authorization = token === undefined ? undefined : `Bearer ${token}`;
  const headers = authorization === undefined ? {} : { headers: { Authorization: authorization } };
  const cursor = { mcpServers: { [name]: { url, ...headers } } };
  const vscode = { servers: { [name]: { type: 'http', url, ...headers } } };
  const bridgeArgs = ['-y', 'mcp-remote', url];
  if (authorization !== undefined) bridgeArgs.push('--header', `Authorization: ${authorization}`);
  const claude = { mcpServers: { [name]: { command: 'npx', args: bridgeArgs } } };
  return [
    'Cursor (~/.cursor/mcp.json):',
    JSON.stringify(cursor, null, 2),
    '',
    'VS Code (.vscode/mcp.json):',
    JSON.stringify(vscode, null, 2),
    '',
    'Claude Desktop (claude_desktop_config.json, through the mcp-remote bridge):',
    JSON.stringify(claude, null, 2),
  ].join('\n');
}
