import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../src/ai/mcp/index.ts';
import { anthropic, gemini, type Model, openai } from '../../src/ai/model/index.ts';
import { TOOL_FORMATS } from '../../src/cli/tool-formats.ts';
import * as served from '../ai/mcp/fixtures/tools.ts';
import { replayServer } from '../helpers/fake-provider.ts';
import { cli } from './io.ts';

const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    unit: { enum: ['c', 'f'] },
  },
  required: ['city'],
};

const tools = async (...args: string[]) => {
  const result = await cli(['tools', 'fixtures/many.ts', ...args]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
};

describe('fino tools', () => {
  it('prints every exported task as a neutral definition by default', async () => {
    const defs = await tools();
    expect(defs.map((d) => d.name)).toEqual([
      'get_weather',
      'stats',
      'failing',
      'throwing',
      'streaming',
      'waiting',
    ]);
    expect(defs[0]).toMatchObject({
      name: 'get_weather',
      description: 'Get current weather for a city.',
      parameters: weatherParameters,
    });
  });

  it('prints OpenAI, Anthropic and MCP shapes', async () => {
    expect((await tools('--format', 'openai'))[0]).toMatchObject({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Get current weather for a city.',
        parameters: weatherParameters,
      },
    });
    expect((await tools('--format=anthropic'))[0]).toMatchObject({
      name: 'get_weather',
      description: 'Get current weather for a city.',
      input_schema: weatherParameters,
    });
    expect((await tools('--format', 'mcp'))[0]).toMatchObject({
      name: 'get_weather',
      description: 'Get current weather for a city.',
      inputSchema: weatherParameters,
    });
  });

  it('names every format it accepts in its help, in fino --help and in docs/cli.md', async () => {
    const help = await cli(['tools', '--help']);
    const main = await cli(['--help']);
    const docs = readFileSync(join(import.meta.dirname, '../../docs/cli.md'), 'utf8');
    const choices = `--format <${TOOL_FORMATS.join('|')}>`;
    expect(help.stdout).toContain(choices);
    expect(docs).toContain(`fino tools <file> [--format ${TOOL_FORMATS.join('|')}]`);
    for (const format of TOOL_FORMATS) {
      expect(help.stdout).toMatch(new RegExp(`^ {2}${format} +\\S`, 'm'));
      expect(main.stdout).toMatch(new RegExp(`^ {2}tools .*\\b${format}\\b`, 'm'));
      // Each accepted format prints definitions.
      expect(await tools('--format', format)).toHaveLength(6);
    }
    expect(docs).toContain(`expected one of ${TOOL_FORMATS.join(', ')}, received`);
  });

  it('exits 2 on an unknown format or option, or without a file', async () => {
    const format = await cli(['tools', 'fixtures/many.ts', '--format', 'xml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(
      /--format: expected one of neutral, openai, anthropic, gemini, mcp, received "xml"/,
    );
    expect((await cli(['tools', 'fixtures/many.ts', '--pretty'])).code).toBe(2);
    expect((await cli(['tools'])).stderr).toMatch(/missing <file>/);
  });
});

describe('fino tools prints what is sent', () => {
  const FIXTURE = '../ai/mcp/fixtures/tools.ts';
  const printed = async (format: string) => {
    const result = await cli(['tools', FIXTURE, '--format', format]);
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as Record<string, unknown>[];
  };

  it('--format mcp equals what mcpServer lists: title, annotations, _meta, outputSchema', async () => {
    const tools = [
      served.echo,
      served.add,
      served.fail,
      served.pixel,
      served.slow,
      served.remove,
      served.ask,
    ];
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({ name: 'listing', version: '1.0.0', tools }).connect(serverSide);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools: listed } = await client.listTools();
    await client.close();
    const byName = (list: Array<{ name: unknown }>) =>
      [...list].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    const mcp = await printed('mcp');
    expect(byName(mcp as never)).toEqual(byName(listed));
    expect(mcp.find((t) => t.name === 'echo')).toMatchObject({ title: 'Echo' });
    expect(mcp.find((t) => t.name === 'add')).toHaveProperty('outputSchema');
    expect(mcp.find((t) => t.name === 'remove')).toHaveProperty(
      'annotations.destructiveHint',
      true,
    );
  });

  it('--format openai, anthropic and gemini equal the tools each adapter sends', async () => {
    const definitions = [served.echo, served.add].map((t) => t.toToolDefinition());
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: definitions };
    const sentTools = async (make: (baseURL: string) => Model) => {
      const server = await replayServer([{ status: 400, json: { error: { message: 'no' } } }]);
      try {
        await make(server.url)
          .generate(request)
          .catch(() => undefined);
        return server.requests[0].body.tools;
      } finally {
        await server.close();
      }
    };
    const options = { model: 'm', apiKey: 'k' };
    const names = ['echo', 'add'];
    const pick = (list: Array<Record<string, any>>) =>
      list.filter((t) => names.includes(t.name ?? t.function?.name));
    expect(pick(await printed('openai'))).toEqual(
      await sentTools((baseURL) => openai({ ...options, baseURL })),
    );
    expect(pick(await printed('anthropic'))).toEqual(
      await sentTools((baseURL) => anthropic({ ...options, baseURL })),
    );
    expect(pick(await printed('gemini'))).toEqual(
      (await sentTools((baseURL) => gemini({ ...options, baseURL })))[0].functionDeclarations,
    );
  });
});
