/**
 * Content parts, tool results and tool definitions: the shapes that cross every module.
 *
 * They live in `fino:task` because it is the lowest module that produces them
 * (`Task.invoke()` returns a {@link ToolResultObject}, `Task.toToolDefinition()` a
 * {@link ToolDefinition}); `fino:ai/tool` and `fino:ai/model` re-export them, so a user
 * imports them from whichever module they already use. See docs/decisions/002.
 */

/** A run of plain text. */
export interface TextPart {
  type: 'text';
  text: string;
  /**
   * Opaque data the provider that wrote this text (in an assistant message) needs back
   * with it, keyed by provider name (e.g. OpenAI's Responses output item). Others ignore it.
   */
  providerMetadata?: Record<string, unknown>;
}

/** An image, base64-encoded. */
export interface ImagePart {
  type: 'image';
  /** IANA media type, e.g. `image/png`. */
  mediaType: string;
  /** Base64 data, without a `data:` prefix. */
  data: string;
}

/** A sound clip, base64-encoded. */
export interface AudioPart {
  type: 'audio';
  mediaType: string;
  data: string;
}

/** A document (PDF, plain text, …), base64-encoded, with an optional file name. */
export interface DocumentPart {
  type: 'document';
  mediaType: string;
  data: string;
  name?: string;
}

/** A resource named by URI, with its contents inline as text or base64 data. */
export interface ResourcePart {
  type: 'resource';
  uri: string;
  mediaType?: string;
  text?: string;
  data?: string;
}

/** A model's request to call a tool (in an assistant message). */
export interface ToolUsePart {
  type: 'tool_use';
  /** The call's id, unique within the run. */
  id: string;
  name: string;
  /** The arguments as the model wrote them (parsed JSON, or the raw text when it was not JSON). */
  args: unknown;
  /**
   * Opaque data a provider attached to the call and needs back unchanged with it
   * (e.g. Gemini's `thoughtSignature`), keyed by provider name. Other providers ignore it.
   */
  providerMetadata?: Record<string, unknown>;
  /**
   * Set when the model's provider ran the call itself (a provider-defined tool such as
   * OpenAI's web search): its result follows in the same assistant message, the agent
   * does not run it, and only this provider sends the pair back; others skip both.
   */
  provider?: string;
}

/**
 * A model's reasoning (extended thinking), kept verbatim in its assistant message so it
 * can be sent back: Anthropic requires the signed thinking block to accompany the
 * `tool_use` it preceded. `redacted` holds an encrypted (redacted) block's data instead
 * of text. Providers other than `provider` do not send it.
 */
export interface ReasoningPart {
  type: 'reasoning';
  /** The reasoning text as the model produced it (empty for a redacted block). */
  text: string;
  /** The provider's signature over the text, returned unchanged. */
  signature?: string;
  /** The encrypted data of a redacted block, returned unchanged. */
  redacted?: string;
  /** The provider that produced it, e.g. `anthropic`. */
  provider?: string;
  /** Opaque data `provider` needs back unchanged (e.g. OpenAI's whole reasoning item). */
  providerMetadata?: Record<string, unknown>;
}

/** The result of one tool call (in a user message), answering the `tool_use` with the same id. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  content: string | ContentPart[];
  isError?: boolean;
  /** Set on the result of a call the provider ran itself (see {@link ToolUsePart.provider}). */
  provider?: string;
}

/** Any part of a message or of a tool result. */
export type ContentPart =
  | TextPart
  | ImagePart
  | AudioPart
  | DocumentPart
  | ResourcePart
  | ToolUsePart
  | ToolResultPart
  | ReasoningPart;

/**
 * The tool_result contract: what `Task.invoke()` always resolves to.
 * `isError: true` reports a failure to the model as a failed tool result.
 */
export interface ToolResultObject {
  content: ContentPart | ContentPart[] | string;
  isError?: boolean;
  /**
   * The result as one JSON object, for callers that want structured output (MCP's
   * `structuredContent`); `content` still carries it for models, as text.
   */
  structuredContent?: Record<string, unknown>;
}

import type { JsonSchemaObject } from '../validate/index.ts';

export type { JsonSchemaObject };

/** The provider-neutral tool definition that `fino:ai/model` providers send to a model. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** Plain JSON Schema for the arguments, always an object schema. */
  parameters: JsonSchemaObject;
}

/**
 * One message of a conversation. Tool calls are `tool_use` parts of an assistant
 * message; their results are `tool_result` parts of the user message that follows.
 * Declared here because a tool's run context carries the conversation so far.
 */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}
