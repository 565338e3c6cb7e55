/**
 * `ctx.log()`, `ctx.sample()` and `ctx.elicit()` of a call served over MCP: log
 * notifications honouring `logging/setLevel`, `sampling/createMessage` and
 * `elicitation/create` sent to the client through the SDK, on the stream of the request
 * they belong to. Decisions 120, 187.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitResult,
  type RequestOptions,
  type SamplingMessage,
  type ServerContext,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import type {
  ContentPart,
  ElicitAnswer,
  ElicitRequest,
  LogFn,
  SampleRequest,
  SampleResult,
} from '../../../task/index.ts';
import { compile, formatIssues } from '../../../validate/index.ts';
import { fromMcpContent, PartBudget, toSamplingContent } from '../protocol/index.ts';
import { missingCapability } from './missing-capability.ts';

/** The client's capabilities: the request's own (2026-era) or the connection's. */
export type CapabilitiesOf = () => ClientCapabilities | undefined;

/** The capabilities the client of this request declared. */
export function requestCapabilities(
  ctx: ServerContext,
  connection: CapabilitiesOf,
): ClientCapabilities | undefined {
  const perRequest = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as
    | ClientCapabilities
    | undefined;
  return perRequest ?? connection();
}

/**
 * Options for a request the server sends while answering `ctx`'s request: sent on that
 * request's own response stream (on a 2025-era HTTP session, the SSE stream of the
 * `tools/call`, which every client reads) rather than on the optional GET stream a
 * client may never open.
 */
export function onRequestStream(ctx: ServerContext): RequestOptions {
  return { relatedRequestId: ctx.mcpReq.id };
}

/** {@link onRequestStream}, and cancelled with `ctx`'s request. */
function withRequest(ctx: ServerContext): RequestOptions {
  return { ...onRequestStream(ctx), signal: ctx.mcpReq.signal };
}

/**
 * Sends one request to the client and resolves with its answer: by default a 2025-era
 * request on the call's stream; on 2026-07-28, an input request (`input-rounds.ts`).
 */
export type AskClient<P> = (params: P, key: string | undefined) => Promise<unknown>;

/** What a form request carries. */
export interface FormParams {
  message: string;
  requestedSchema: ElicitRequest['schema'];
}

/** `ctx.log` of a call served over MCP: a `notifications/message` the SDK filters by level. */
export function mcpLog(ctx: ServerContext): LogFn {
  return (level, message, data) => {
    ctx.mcpReq.log(level, data === undefined ? message : { message, data }).catch(() => undefined); // the client left: a log line is not worth failing the call
  };
}

/** `ctx.sample` of a call served over MCP. */
export function mcpSample(
  ctx: ServerContext,
  connection: CapabilitiesOf,
  send: AskClient<CreateMessageRequest['params']> = (params) =>
    ctx.mcpReq.requestSampling(params, withRequest(ctx)),
): (request: SampleRequest) => Promise<SampleResult> {
  return async (request) => {
    const params = samplingParams(request);
    if (requestCapabilities(ctx, connection)?.sampling === undefined) {
      throw missingCapability(
        ctx,
        'sampling',
        'ctx.sample: this MCP client cannot sample (it declares no sampling capability); ask for the answer another way',
      );
    }
    const result = (await send(params, request.key)) as CreateMessageResult;
    const block = Array.isArray(result.content) ? result.content[0] : result.content;
    const content: ContentPart =
      block === undefined ? { type: 'text', text: '' } : fromMcpContent(block as never);
    const answer: SampleResult = {
      text: content.type === 'text' ? content.text : '',
      content,
      model: result.model,
    };
    if (result.stopReason !== undefined) answer.stopReason = result.stopReason;
    return answer;
  };
}

/** `ctx.elicit` of a call served over MCP: the form is checked before it is sent, the answer after. */
export function mcpElicit(
  ctx: ServerContext,
  connection: CapabilitiesOf,
  send: AskClient<FormParams> = (params) =>
    ctx.mcpReq.elicitInput(params as never, withRequest(ctx)),
): (request: ElicitRequest) => Promise<ElicitAnswer> {
  return async (request) => {
    checkElicitRequest(request);
    if (requestCapabilities(ctx, connection)?.elicitation === undefined) {
      throw missingCapability(
        ctx,
        'elicitation',
        'ctx.elicit: this MCP client cannot ask its user (it declares no elicitation capability)',
      );
    }
    const result = await send(
      { message: request.message, requestedSchema: request.schema },
      request.key,
    );
    return checkedAnswer(request, result as ElicitResult);
  };
}

/** The most properties one form may have. */
const MAX_FORM_FIELDS = 100;

/**
 * Throws a `TypeError` unless `request` is `{ message, schema }` with a flat object schema
 * of MCP's primitive fields (checked with the SDK's own definition).
 */
export function checkElicitRequest(request: ElicitRequest): void {
  if (typeof request?.message !== 'string' || request.message === '') {
    throw new TypeError(
      `ctx.elicit: message: expected a non-empty string, received ${describeValue(request?.message)}`,
    );
  }
  const schema = request.schema as unknown as Record<string, unknown> | undefined;
  const properties = schema?.properties;
  if (
    schema?.type !== 'object' ||
    typeof properties !== 'object' ||
    properties === null ||
    Array.isArray(properties)
  ) {
    throw new TypeError(
      `ctx.elicit: schema: expected { type: 'object', properties: { … } }, received ${describeValue(schema)}`,
    );
  }
  const names = Object.keys(properties);
  if (names.length > MAX_FORM_FIELDS) {
    throw new TypeError(
      `ctx.elicit: schema: expected at most ${MAX_FORM_FIELDS} properties, received ${names.length}`,
    );
  }
  for (const name of names) {
    const field = (properties as Record<string, unknown>)[name];
    const checked = specTypeSchemas.PrimitiveSchemaDefinition['~standard'].validate(field);
    if (checked instanceof Promise || checked.issues !== undefined) {
      throw new TypeError(
        `ctx.elicit: schema.properties.${name}: expected a flat field (string, number, integer, boolean, or an array of enumerated strings), received ${describeValue(field)}`,
      );
    }
  }
  const required = schema.required;
  const known = new Set(names);
  if (
    required !== undefined &&
    (!Array.isArray(required) || required.some((name) => !known.has(name)))
  ) {
    throw new TypeError(
      `ctx.elicit: schema.required: expected names of the schema's properties, received ${describeValue(required)}`,
    );
  }
}

/** The client's answer, its content checked against the form; a bad one is an error, never asked again. */
export function checkedAnswer(request: ElicitRequest, result: ElicitResult): ElicitAnswer {
  if (result.action !== 'accept') return { action: result.action };
  const content = result.content ?? {};
  const checked = compile(request.schema).safeParse(content);
  if (!checked.success) {
    throw new Error(
      `ctx.elicit: the answer to "${request.message}" does not match the form:\n${formatIssues(checked.issues)}`,
    );
  }
  return { action: 'accept', content: content as Record<string, string | number | boolean> };
}

/** A `SampleRequest` as `sampling/createMessage` params; a `TypeError` names a bad field. */
function samplingParams(request: SampleRequest): CreateMessageRequest['params'] {
  if (!Array.isArray(request?.messages) || request.messages.length === 0) {
    throw new TypeError(
      `ctx.sample: messages: expected a non-empty array of { role, content }, received ${describeValue(request?.messages)}`,
    );
  }
  if (!Number.isInteger(request.maxTokens) || request.maxTokens <= 0) {
    throw new TypeError(
      `ctx.sample: maxTokens: expected an integer > 0, received ${describeValue(request.maxTokens)}`,
    );
  }
  const budget = new PartBudget('ctx.sample');
  const messages = request.messages.map((message, index): SamplingMessage => {
    if (message?.role !== 'user' && message?.role !== 'assistant') {
      throw new TypeError(
        `ctx.sample: messages[${index}].role: expected 'user' or 'assistant', received ${describeValue(message?.role)}`,
      );
    }
    const where = `ctx.sample: messages[${index}].content`;
    return { role: message.role, content: toSamplingContent(message.content, where, budget) };
  });
  const params: CreateMessageRequest['params'] = { messages, maxTokens: request.maxTokens };
  if (request.systemPrompt !== undefined) params.systemPrompt = request.systemPrompt;
  if (request.modelPreferences !== undefined) params.modelPreferences = request.modelPreferences;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.stopSequences !== undefined) params.stopSequences = request.stopSequences;
  return params;
}
