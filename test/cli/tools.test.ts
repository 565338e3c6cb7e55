import { describe, expect, it } from 'vitest';
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

  it('exits 2 on an unknown format or option, or without a file', async () => {
    const format = await cli(['tools', 'fixtures/many.ts', '--format', 'gemini']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(
      /--format: expected one of neutral, openai, anthropic, mcp, received "gemini"/,
    );
    expect((await cli(['tools', 'fixtures/many.ts', '--pretty'])).code).toBe(2);
    expect((await cli(['tools'])).stderr).toMatch(/missing <file>/);
  });
});
