/**
 * The main job: serves the workspace tools (list, read, search, write, remove files in
 * one folder) over MCP Streamable HTTP on 127.0.0.1, and prints the URL and the
 * configuration snippet to paste into an MCP client.
 *
 *     npm start                                   # demo folder .fino/workspace, port 3000
 *     npm start -- --dir ~/notes --port 4000 --token s3cret
 *
 * Flags: `--dir <folder>` (or `FINO_WORKSPACE`), `--host <host>` (default 127.0.0.1),
 * `--port <n>` (or `PORT`, default 3000; 0 picks a free one), `--token <t>` (or
 * `FINO_MCP_TOKEN`): require `Authorization: Bearer <t>`.
 */
import { parseArgs } from 'node:util';
import { mcpServer } from '../src/ai/mcp/index.ts';
import { configSnippets } from './workspace/config-snippet.ts';
import { workspaceFolder } from './workspace/folder.ts';
import { workspaceTools } from './workspace/tools.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    token: { type: 'string', default: process.env.FINO_MCP_TOKEN },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, got "${values.port}"`);
  process.exit(2);
}

const root = await workspaceFolder(values.dir);
const server = mcpServer({
  name: 'workspace',
  version: '1.0.0',
  instructions: `Tools over the files of ${root}. Paths are relative to that folder.`,
  tools: await workspaceTools(root),
});
const http = await server.listen({ host: values.host, port, token: values.token });

console.log(`Serving the workspace ${root}`);
console.log(`MCP endpoint (Streamable HTTP): ${http.url}`);
console.log(`Tools: ${server.tools.map((t) => t.name).join(', ')}\n`);
console.log(configSnippets('workspace', http.url, values.token));
console.log('\nPress Ctrl+C to stop.');

const stop = () => void http.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
