/**
 * The Gemini adapter's wire format, checked against Google's own TypeScript types
 * (`@google/genai`): a request body the adapter really sent must satisfy them.
 *
 * The SDK's `GenerateContentParameters` is its call shape (`{ model, contents, config }`,
 * with generation settings flattened into `config`); the REST body puts `systemInstruction`,
 * `tools`, `toolConfig` and `safetySettings` beside `contents`, and the generation settings
 * in `generationConfig`. The SDK's converter copies its `Content`, `Tool`, `ToolConfig` and
 * `GenerationConfig` values into those REST fields unchanged, so they are the REST types.
 * Its enums (`Type`, `FunctionCallingConfigMode`, `ThinkingLevel`) are TypeScript enums
 * whose JSON form is their string values: {@link Json} maps them to those strings.
 */
import type {
  Candidate,
  Content,
  GenerateContentResponseUsageMetadata,
  GenerationConfig,
  SafetySetting,
  Tool,
  ToolConfig,
} from '@google/genai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { gemini } from '../../../../src/ai/model/index.ts';
import { useFakeProvider } from '../../../helpers/fake-provider.ts';

/** A type as JSON carries it: enum members become their string values. */
type Json<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** The REST body of `models/{model}:generateContent`, in Google's types. */
interface GenerateContentRequest {
  contents: Json<Content>[];
  systemInstruction?: Json<Content>;
  tools?: Json<Tool>[];
  toolConfig?: Json<ToolConfig>;
  generationConfig?: Json<GenerationConfig>;
  safetySettings?: Json<SafetySetting>[];
}

const fake = useFakeProvider();

/** A documented response candidate, in Google's types. */
const candidate = {
  content: { role: 'model', parts: [{ text: 'ok', thoughtSignature: 'c2ln' }] },
  finishReason: 'STOP',
  index: 0,
} satisfies Json<Candidate>;
const usageMetadata = {
  promptTokenCount: 10,
  candidatesTokenCount: 2,
  thoughtsTokenCount: 3,
  cachedContentTokenCount: 4,
  totalTokenCount: 15,
} satisfies Json<GenerateContentResponseUsageMetadata>;

describe('gemini: wire types', () => {
  it('a request body it sent satisfies the REST types of @google/genai', async () => {
    await fake.serve([{ json: { candidates: [candidate], usageMetadata } }]);
    const model = gemini({ model: 'g', apiKey: 'k', baseURL: fake.server.url });
    await model.generate({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Check.', signature: 'dGg=', provider: 'gemini' },
            {
              type: 'tool_use',
              id: 'fc_1',
              name: 'weather',
              args: { city: 'Oslo' },
              providerMetadata: { gemini: { id: 'fc_1', thoughtSignature: 'c2ln' } },
            },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolCallId: 'fc_1', content: '4 °C' },
            { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
          ],
        },
      ],
      tools: [
        {
          name: 'weather',
          description: 'Weather for a city',
          parameters: {
            type: 'object',
            properties: {
              city: { type: 'string', description: 'City name' },
              days: { type: ['integer', 'null'], minimum: 1 },
              unit: { enum: ['C', 'F'] },
            },
            required: ['city'],
          },
        },
      ],
      toolChoice: { name: 'weather' },
      maxTokens: 256,
      temperature: 0.2,
      reasoning: { effort: 'high' },
      output: {
        schema: {
          type: 'object',
          properties: {
            temp: { type: 'number' },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      providerOptions: {
        gemini: {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
        },
      },
    });
    const expected = {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Check.', thought: true, thoughtSignature: 'dGg=' },
            {
              functionCall: { id: 'fc_1', name: 'weather', args: { city: 'Oslo' } },
              thoughtSignature: 'c2ln',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'fc_1', name: 'weather', response: { output: '4 °C' } } },
            { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'weather',
              description: 'Weather for a city',
              parameters: {
                type: 'OBJECT',
                properties: {
                  city: { type: 'STRING', description: 'City name' },
                  days: { type: 'INTEGER', nullable: true, minimum: 1 },
                  unit: { type: 'STRING', enum: ['C', 'F'] },
                },
                required: ['city'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
      generationConfig: {
        maxOutputTokens: 256,
        temperature: 0.2,
        thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: {
            temp: { type: 'NUMBER' },
            tags: { type: 'ARRAY', items: { type: 'STRING' } },
          },
        },
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
    } satisfies GenerateContentRequest;
    expect(fake.server.requests[0].body).toEqual(expected);
  });

  it('the JSON mapping keeps enums strict: a misspelt mode or type is not a request', () => {
    expectTypeOf<{ mode: 'ANY' }>().toExtend<Json<ToolConfig['functionCallingConfig']>>();
    expectTypeOf<{ mode: 'any' }>().not.toExtend<Json<ToolConfig['functionCallingConfig']>>();
    expectTypeOf<{ type: 'object' }>().not.toExtend<
      Json<NonNullable<GenerationConfig['responseSchema']>>
    >();
    expectTypeOf<{ functionDeclaration: [] }>().not.toExtend<Json<Tool>>();
  });
});
