/**
 * What a running call may ask of whoever called it — `ctx.log()`, `ctx.sample()`,
 * `ctx.elicit()` — checked once here and handed to the caller's handler: an MCP client
 * (log notifications, `sampling/createMessage`, `elicitation/create`), an agent's stream,
 * the CLI's standard error. A caller that offers none gets the defaults below: a log
 * message is dropped, sampling and elicitation fail with an error saying why.
 * Decision 120.
 */
import { describeValue } from '../internal/describe-value.ts';
import type { ContentPart } from './content.ts';

/** The RFC 5424 severities MCP uses, least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** One RFC 5424 severity: `ctx.log('warning', 'disk almost full')`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One checked `ctx.log()` call. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  /** Anything JSON-serialisable that goes with the message. */
  data?: unknown;
}

/**
 * One message of a {@link SampleRequest}: plain text, one text, image or audio part, or
 * an array of them (`[{ type: 'text', text }, { type: 'image', mediaType, data }]`).
 */
export interface SampleMessage {
  role: 'user' | 'assistant';
  content: string | ContentPart | ContentPart[];
}

/** What `ctx.sample()` asks the caller's model. */
export interface SampleRequest {
  messages: SampleMessage[];
  /** The most tokens the answer may take (an integer > 0). */
  maxTokens: number;
  systemPrompt?: string;
  /** Hints for the client's choice of model (MCP `modelPreferences`). */
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  temperature?: number;
  stopSequences?: string[];
  /** This request's name among what one MCP call asks (its input-request key on MCP 2026-07-28). */
  key?: string;
}

/** The caller model's answer to a {@link SampleRequest}. */
export interface SampleResult {
  /** The answer's text (`''` when it is not text). */
  text: string;
  /** The answer as a content part. */
  content: ContentPart;
  /** The model that answered. */
  model: string;
  stopReason?: string;
}

/**
 * What `ctx.elicit()` asks a person: a message and a flat object schema of primitives
 * (MCP's restricted subset: string — with `enum`, `oneOf` titles, formats —, number,
 * integer, boolean, and arrays of enumerated strings).
 */
export interface ElicitRequest {
  message: string;
  schema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  /** This form's name among what one MCP call asks (its input-request key on MCP 2026-07-28). */
  key?: string;
}

/** A person's answer to an {@link ElicitRequest}; `content` is checked against the schema. */
export type ElicitAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** One root the caller shares (MCP `roots/list`): a `file://` URI and an optional name. */
export interface Root {
  uri: string;
  name?: string;
}

/** What `ctx.listRoots()` may name: its request's key on MCP 2026-07-28. */
export interface ListRootsRequest {
  /** This request's name among what one MCP call asks (its input-request key on MCP 2026-07-28). */
  key?: string;
}

/** `ctx.log`: one message at one RFC 5424 level, with optional data. */
export type LogFn = (level: LogLevel, message: string, data?: unknown) => void;

/** The longest log message passed on; longer ones are cut. */
const MAX_LOG_CHARS = 10_000;

/** A clean copy of one `ctx.log()` call, or a `TypeError` naming the bad argument. */
export function checkLog(level: unknown, message: unknown, data?: unknown): LogEntry {
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new TypeError(
      `log: level: expected one of ${LOG_LEVELS.join(', ')}, received ${describeValue(level)}`,
    );
  }
  if (typeof message !== 'string') {
    throw new TypeError(`log: message: expected a string, received ${describeValue(message)}`);
  }
  const entry: LogEntry = { level: level as LogLevel, message: message.slice(0, MAX_LOG_CHARS) };
  if (data !== undefined) entry.data = data;
  return entry;
}

/** `ctx.log` checking each call, then passing it to the caller's `log` (or dropping it). */
export function checkedLog(handler: LogFn | undefined): LogFn {
  return (level, message, data) => {
    const entry = checkLog(level, message, data);
    handler?.(entry.level, entry.message, entry.data);
  };
}

/** `ctx.sample` for a caller without a model to offer. */
export function noSampling(): Promise<SampleResult> {
  return Promise.reject(
    new Error(
      'ctx.sample: this call has no model to ask: sampling needs an MCP client that declares the sampling capability (or a caller that passes `sample`)',
    ),
  );
}

/** `ctx.listRoots` for a caller without roots to share. */
export function noRoots(): Promise<Root[]> {
  return Promise.reject(
    new Error(
      'ctx.listRoots: this call has no roots to ask for: roots need an MCP client that declares the roots capability (or a caller that passes `listRoots`)',
    ),
  );
}

/** `ctx.elicit` for a caller without a person to ask. */
export function noElicitation(): Promise<ElicitAnswer> {
  return Promise.reject(
    new Error(
      'ctx.elicit: this call has no one to ask: elicitation needs an MCP client that declares the elicitation capability (or a caller that passes `elicit`)',
    ),
  );
}
