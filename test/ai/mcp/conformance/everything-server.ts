/**
 * The "everything" server of the official MCP conformance suite, written with fino's
 * public API only: each tool, resource and prompt a server scenario calls for.
 * Run it with `node --import tsx test/ai/mcp/conformance/everything-server.ts [port]`.
 */
import {
  type McpToolServer,
  mcpServer,
  prompt,
  resource,
  resourceTemplate,
} from '../../../../src/ai/mcp/index.ts';
import { memoryStore } from '../../../../src/ai/session/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { inputRequiredPrompt, inputRequiredTools } from './input-required-tools.ts';
import { taskTools } from './task-tools.ts';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const noArguments = v.object({});

const tools = [
  tool({
    name: 'test_simple_text',
    description: 'Answers a fixed text.',
    parameters: noArguments,
    execute: () => 'This is a simple text response for testing.',
  }),
  tool({
    name: 'test_image_content',
    description: 'Answers an image.',
    parameters: noArguments,
    execute: () => ({ content: [{ type: 'image', mediaType: 'image/png', data: PNG }] }),
  }),
  tool({
    name: 'test_audio_content',
    description: 'Answers audio.',
    parameters: noArguments,
    execute: () => ({ content: [{ type: 'audio', mediaType: 'audio/wav', data: WAV }] }),
  }),
  tool({
    name: 'test_embedded_resource',
    description: 'Answers an embedded resource.',
    parameters: noArguments,
    execute: () => ({
      content: [
        {
          type: 'resource',
          uri: 'test://embedded-resource',
          mediaType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      ],
    }),
  }),
  tool({
    name: 'test_multiple_content_types',
    description: 'Answers text, an image and a resource.',
    parameters: noArguments,
    execute: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        {
          type: 'resource',
          uri: 'test://mixed-content-resource',
          mediaType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      ],
    }),
  }),
  tool({
    name: 'test_error_handling',
    description: 'Always fails.',
    parameters: noArguments,
    execute: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
  tool({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100.',
    parameters: noArguments,
    execute: async (_args, ctx) => {
      for (const progress of [0, 50, 100]) {
        ctx.progress({ progress, total: 100 });
        if (progress < 100) await sleep(50);
      }
      return 'Progress reported.';
    },
  }),
  tool({
    name: 'test_tool_with_logging',
    description: 'Logs three messages while it runs.',
    parameters: noArguments,
    execute: async (_args, ctx) => {
      ctx.log('info', 'Tool execution started');
      await sleep(50);
      ctx.log('info', 'Tool processing data');
      await sleep(50);
      ctx.log('info', 'Tool execution completed');
      return 'Logged three messages.';
    },
  }),
  tool({
    name: 'test_sampling',
    description: "Asks the client's model.",
    parameters: v.object({ prompt: v.string() }),
    execute: async ({ prompt }, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: prompt }],
        maxTokens: 100,
      });
      return `LLM response: ${answer.text}`;
    },
  }),
  tool({
    name: 'test_elicitation',
    description: 'Asks the user for a name and an email address.',
    parameters: v.object({ message: v.string() }),
    execute: async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message,
        schema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: ${JSON.stringify(answer)}`;
    },
  }),
  tool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks a form with a default for every primitive type.',
    parameters: noArguments,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please review and update the form fields with defaults',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify('content' in answer ? answer.content : {})}`;
    },
  }),
  tool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks a form with every kind of enumeration.',
    parameters: noArguments,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Please select options from the enum fields',
        schema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify('content' in answer ? answer.content : {})}`;
    },
  }),
  tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    execute: (args) => `Received ${JSON.stringify(args)}`,
  }),
  // The 2026-07-28 scenarios' diagnostic tools (server-stateless, SEP-2575) and a tool
  // whose parameter is mirrored into an `Mcp-Param-Region` header (SEP-2243).
  tool({
    name: 'test_missing_capability',
    description: "Needs the client's sampling capability.",
    parameters: noArguments,
    execute: async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: 'Say hello.' }],
        maxTokens: 10,
      });
      return `Sampled: ${answer.text}`;
    },
  }),
  tool({
    name: 'test_streaming_elicitation',
    description: 'Reports progress, then asks the user for a name.',
    parameters: noArguments,
    execute: async (_args, ctx) => {
      ctx.progress({ progress: 50, total: 100 });
      const answer = await ctx.elicit({
        message: 'What is your name?',
        schema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return `Streaming complete: ${answer.action}`;
    },
  }),
  tool({
    name: 'test_custom_header',
    description: 'Answers the region it was given, which also travels as a header.',
    parameters: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
    execute: (args) => `Region: ${(args as { region: string }).region}`,
  }),
  tool({
    name: 'test_reconnection',
    description: 'Answers after a short wait.',
    parameters: noArguments,
    execute: async () => {
      await sleep(50);
      return 'Reconnection test completed successfully';
    },
  }),
];

const resources = [
  resource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  }),
  resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG image).',
    mimeType: 'image/png',
    read: () => Buffer.from(PNG, 'base64'),
  }),
  resource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients can subscribe to.',
    mimeType: 'text/plain',
    read: () => 'Watched resource content.',
  }),
  resourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for one id.',
    mimeType: 'application/json',
    complete: { id: (typed) => ['123', '456', '789'].filter((id) => id.startsWith(typed)) },
    read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  }),
];

const prompts = [
  prompt({
    name: 'test_simple_prompt',
    description: 'A prompt without arguments.',
    get: () => 'This is a simple prompt for testing.',
  }),
  prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: v.object({
      arg1: v.string().describe('First test argument'),
      arg2: v.string().describe('Second test argument'),
    }),
    complete: { arg1: (typed) => ['paris', 'park', 'party'].filter((w) => w.startsWith(typed)) },
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource.',
    arguments: v.object({ resourceUri: v.string().describe('URI of the resource to embed') }),
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          uri: resourceUri,
          mediaType: 'text/plain',
          text: 'Embedded resource content for testing.',
        },
      },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ],
  }),
  prompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
    get: () => [
      { role: 'user', content: { type: 'image', mediaType: 'image/png', data: PNG } },
      { role: 'user', content: 'Please analyze the image above.' },
    ],
  }),
];

/**
 * The diagnostic tools of the 2026-07-28 scenarios on logging and `subscriptions/listen`
 * (server-stateless): one logs, two change the tool or the prompt list of `server`.
 */
function listenDiagnostics(server: McpToolServer) {
  const dynamicTool = tool({
    name: 'test_dynamic_tool',
    description: 'Served and withdrawn by test_trigger_tool_change.',
    parameters: noArguments,
    execute: () => 'dynamic',
  });
  const dynamicPrompt = prompt({
    name: 'test_dynamic_prompt',
    description: 'Served and withdrawn by test_trigger_prompt_change.',
    get: () => 'dynamic',
  });
  return [
    tool({
      name: 'test_logging_tool',
      description: 'Logs a message at each level.',
      parameters: noArguments,
      execute: (_args, ctx) => {
        for (const level of ['debug', 'info', 'warning', 'error'] as const) ctx.log(level, level);
        return 'Logged.';
      },
    }),
    tool({
      name: 'test_trigger_tool_change',
      description: 'Serves or withdraws test_dynamic_tool: the tool list changes.',
      parameters: noArguments,
      execute: () => {
        if (!server.removeTool(dynamicTool.name)) server.addTool(dynamicTool);
        return 'Tool list changed.';
      },
    }),
    tool({
      name: 'test_trigger_prompt_change',
      description: 'Serves or withdraws test_dynamic_prompt: the prompt list changes.',
      parameters: noArguments,
      execute: () => {
        if (!server.removePrompt(dynamicPrompt.name)) server.addPrompt(dynamicPrompt);
        return 'Prompt list changed.';
      },
    }),
  ];
}

/** The everything server, not yet listening. */
export function everythingServer(): McpToolServer {
  const server = mcpServer({
    name: 'fino-everything',
    version: '1.0.0',
    tools: [...tools, ...inputRequiredTools, ...taskTools],
    resources,
    prompts: [...prompts, inputRequiredPrompt],
    store: memoryStore(), // the tasks of the Tasks-extension scenarios
  });
  for (const diagnostic of listenDiagnostics(server)) server.addTool(diagnostic);
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const http = await everythingServer().listen({ port: Number(process.argv[2] ?? 0) });
  console.log(http.url);
}
