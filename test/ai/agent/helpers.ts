/** Shared fixtures of the agent tests: deferreds, recording tools, and a collector. */
import type { GenerateRequest, GenerateResult, Model } from '../../../src/ai/model/index.ts';
import type { ToolRunContext } from '../../../src/ai/tool/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A tool `echo({ text })` that records each call's arguments and context. */
export function echoTool(options: { name?: string; requiresApproval?: boolean } = {}) {
  const calls: { args: { text: string }; ctx: ToolRunContext }[] = [];
  const t = tool({
    name: options.name ?? 'echo',
    description: 'Echo the text back.',
    parameters: v.object({ text: v.string() }),
    requiresApproval: options.requiresApproval,
    risk: options.requiresApproval ? 'destructive' : undefined,
    sideEffects: options.requiresApproval ? true : undefined,
    execute: (args: { text: string }, ctx: ToolRunContext) => {
      calls.push({ args, ctx });
      return `echo: ${args.text}`;
    },
  });
  return Object.assign(t, { calls });
}

/** Every event or item of an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const noUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** A text-only model answer. */
export function textResult(text: string): GenerateResult {
  return {
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    text,
    toolCalls: [],
    stopReason: 'end',
    usage: noUsage,
  };
}

/** A model that hands out the given results verbatim (for shapes `scriptedModel` cannot script). */
export function replayModel(results: GenerateResult[]): Model {
  let next = 0;
  const generate = async (_request: GenerateRequest) => {
    const result = results[next++];
    if (!result) throw new Error('replayModel: no result left');
    return result;
  };
  return {
    id: 'replay',
    generate,
    async *stream(request) {
      yield { type: 'stop', result: await generate(request) };
    },
  };
}
