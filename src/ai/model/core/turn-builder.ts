import { AnswerSize } from './answer-size.ts';
import { parseToolArgs } from './tool-args.ts';
import type {
  ContentPart,
  GenerateResult,
  ModelWarning,
  StopReason,
  StreamEvent,
  ToolCall,
  Usage,
} from './types.ts';

type ReasoningPart = Extract<ContentPart, { type: 'reasoning' }>;

interface OpenCall {
  id: string;
  name: string;
  argsText: string;
  index: number;
  part: ContentPart & { type: 'tool_use' };
}

/** Rewrites a tool's parsed arguments (e.g. to undo a schema dialect's rewrite). */
export type ArgsNormalizer = (toolName: string, args: unknown) => unknown;

/**
 * Assembles one assistant turn from a provider's pieces — text deltas and tool-call
 * fragments keyed by the provider's own index — into stream events and, at the end,
 * the {@link GenerateResult}. Argument text is parsed once, when its call ends. Every
 * piece it keeps is counted by its {@link AnswerSize}, which stops an answer past its limit.
 */
export class TurnBuilder {
  private readonly content: ContentPart[] = [];
  private readonly open = new Map<number | string, OpenCall>();
  private readonly toolCalls: ToolCall[] = [];
  private readonly reasoning = new Map<number | string, ReasoningPart>();
  private text = '';
  private calls = 0;
  private outputOf: ((value: unknown) => unknown) | undefined;

  constructor(
    /** The call's answer size: pieces kept outside the builder are counted there too. */
    readonly size: AnswerSize = new AnswerSize(),
    private readonly normalizeArgs?: ArgsNormalizer,
  ) {}

  /**
   * Appends text; returns its event, or nothing for an empty delta. Text joins the last
   * part when that is text with the same `providerMetadata` object (none, or the one of
   * the provider's output item the text belongs to); otherwise it starts a new part.
   */
  addText(text: string, providerMetadata?: Record<string, unknown>): StreamEvent | undefined {
    if (!text) return undefined;
    this.size.add('text', text.length);
    this.text += text;
    const last = this.content.at(-1);
    if (last?.type === 'text' && last.providerMetadata === providerMetadata) last.text += text;
    else {
      this.content.push(
        providerMetadata ? { type: 'text', text, providerMetadata } : { type: 'text', text },
      );
    }
    return { type: 'text-delta', text };
  }

  /** Appends a part the provider produced whole, e.g. a call its server ran and that call's result. */
  addPart(part: ContentPart): void {
    this.size.addValue('output item', part);
    this.content.push(part);
  }

  /** Appends a whole reasoning part (e.g. a thinking block of a non-streamed answer). */
  addReasoning(part: ReasoningPart): void {
    this.size.addValue('reasoning', part);
    this.content.push(part);
  }

  /** Starts reasoning part `key`, filled by {@link appendReasoning} and {@link signReasoning}. */
  startReasoning(key: number | string, part: ReasoningPart): StreamEvent | undefined {
    this.size.addValue('reasoning', part);
    this.content.push(part);
    this.reasoning.set(key, part);
    return part.text ? { type: 'reasoning-delta', text: part.text } : undefined;
  }

  appendReasoning(key: number | string, text: string): StreamEvent | undefined {
    const part = this.reasoning.get(key);
    if (!part || !text) return undefined;
    this.size.add('reasoning', text.length);
    part.text += text;
    return { type: 'reasoning-delta', text };
  }

  /** Sets the signature of reasoning part `key`, as the provider sent it. */
  signReasoning(key: number | string, signature: string): void {
    const part = this.reasoning.get(key);
    if (!part) return;
    this.size.add('reasoning', signature.length);
    part.signature = (part.signature ?? '') + signature;
  }

  /**
   * Asks for the turn's text to be parsed as the structured answer (`result.output`),
   * through `normalize` (e.g. to undo a schema dialect's rewrite).
   */
  parseOutput(normalize: (value: unknown) => unknown = (value) => value): void {
    this.outputOf = normalize;
  }

  /** Whether the provider's call `key` has started and not yet ended. */
  isOpen(key: number | string): boolean {
    return this.open.has(key);
  }

  /** Starts call `key`; `providerMetadata` is kept on its `tool_use` part, to go back with it. */
  startToolCall(
    key: number | string,
    id: string,
    name: string,
    providerMetadata?: Record<string, unknown>,
  ): StreamEvent {
    const part: ContentPart & { type: 'tool_use' } = { type: 'tool_use', id, name, args: {} };
    if (providerMetadata) part.providerMetadata = providerMetadata;
    this.size.addValue('tool call', part);
    this.content.push(part);
    const index = this.calls++;
    this.open.set(key, { id, name, argsText: '', index, part });
    return { type: 'tool-call-start', id, name, index };
  }

  appendToolArgs(key: number | string, argsText: string): StreamEvent | undefined {
    const call = this.open.get(key);
    if (!call || !argsText) return undefined;
    this.size.add('tool call arguments', argsText.length);
    call.argsText += argsText;
    return { type: 'tool-call-delta', id: call.id, argsText, index: call.index };
  }

  /** Ends call `key`: parses its arguments once; malformed JSON sets `argsError`. */
  endToolCall(key: number | string): StreamEvent | undefined {
    const open = this.open.get(key);
    if (!open) return undefined;
    this.open.delete(key);
    const parsed = parseToolArgs(open.argsText);
    const call: ToolCall = { id: open.id, name: open.name, args: parsed.args };
    if (parsed.argsError !== undefined) call.argsError = parsed.argsError;
    else if (this.normalizeArgs) call.args = this.normalizeArgs(open.name, parsed.args);
    open.part.args = call.args;
    this.toolCalls.push(call);
    return { type: 'tool-call-end', call, index: open.index };
  }

  /** Ends every call still open, in the order they started. */
  endOpenToolCalls(): StreamEvent[] {
    const keys = [...this.open.entries()].sort((a, b) => a[1].index - b[1].index).map(([k]) => k);
    return keys.map((key) => this.endToolCall(key)).filter((e) => e !== undefined);
  }

  finish(
    stopReason: StopReason,
    rawStopReason: string | undefined,
    usage: Usage,
    warnings: ModelWarning[],
  ): GenerateResult {
    const result: GenerateResult = {
      message: { role: 'assistant', content: this.content },
      text: this.text,
      toolCalls: this.toolCalls,
      stopReason,
      usage,
    };
    if (rawStopReason !== undefined) result.rawStopReason = rawStopReason;
    if (this.outputOf && this.toolCalls.length === 0 && this.text.trim() !== '') {
      const parsed = parseToolArgs(this.text);
      if (parsed.argsError === undefined) result.output = this.outputOf(parsed.args);
    }
    if (warnings.length > 0) result.warnings = warnings;
    return result;
  }
}

/** Usage from token counts, with the total computed when the provider gives none. */
export function usageOf(inputTokens = 0, outputTokens = 0, totalTokens?: number): Usage {
  return { inputTokens, outputTokens, totalTokens: totalTokens ?? inputTokens + outputTokens };
}
