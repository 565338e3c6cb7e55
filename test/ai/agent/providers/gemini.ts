import { gemini } from '../../../../src/ai/model/index.ts';
import { sseData } from '../../../helpers/fake-provider.ts';
import type { ProviderFixture, SentResult, WireCall } from './fixture.ts';

const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
/** A documented `GenerateContentResponse` chunk: parts of the first candidate. */
const response = (parts: unknown[], finishReason?: string) => ({
  candidates: [
    { content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) },
  ],
  usageMetadata,
});

/** A schema as Gemini got it, read back as JSON Schema (type names lower-cased). */
function asJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'type' && typeof value === 'string'
        ? value.toLowerCase()
        : key === 'enum'
          ? value
          : asJsonSchema(value),
    ]),
  );
}

/** The Gemini API, as documented (`generateContent` and `streamGenerateContent?alt=sse`). */
export const geminiFixture: ProviderFixture = {
  name: 'gemini',
  model: (baseURL) => gemini({ model: 'gemini-test', apiKey: 'AIza-test', baseURL }),
  path: (stream) =>
    stream
      ? '/models/gemini-test:streamGenerateContent?alt=sse'
      : '/models/gemini-test:generateContent',
  toolCalls(calls: WireCall[], stream) {
    // Gemini sends each call whole; the first of a turn carries the thought signature.
    const parts = calls.map((c, i) => ({
      functionCall: { id: c.id, name: c.name, args: c.args },
      ...(i === 0 ? { thoughtSignature: 'c2lnbmF0dXJl' } : {}),
    }));
    if (!stream) return { json: response(parts, 'STOP') };
    return { sse: [sseData(response(parts, 'STOP'))] };
  },
  text(text, stream) {
    if (!stream) return { json: response([{ text }], 'STOP') };
    const half = Math.floor(text.length / 2);
    return {
      sse: [
        sseData(response([{ text: text.slice(0, half) }])),
        sseData(response([{ text: text.slice(half) }], 'STOP')),
      ],
    };
  },
  sentResults(body): SentResult[] {
    return body.contents.flatMap((c: { role: string; parts: any[] }) =>
      c.role !== 'user'
        ? []
        : c.parts
            .filter((p) => p.functionResponse)
            .map(({ functionResponse: r }) => ({
              id: r.id,
              text: 'error' in r.response ? r.response.error : r.response.output,
              isError: 'error' in r.response,
            })),
    );
  },
  sentOutputSchema: (body) => asJsonSchema(body.generationConfig?.responseSchema),
};
