/**
 * One part of a posted UI message, checked by its type: each type's required and
 * optional fields, a tool part's fields by its state, and the parts each role may carry
 * (decision 248). Fields the protocol adds that fino does not read are kept, as checked
 * JSON; fields that belong to another state (an `output` before the call ran) are refused.
 */
import { describeValue } from '../../internal/describe-value.ts';
import type { ResolvedLimits } from './chat-request-limits.ts';
import { isObject, plainEntries } from './json-value.ts';
import type { UIMessage, UIMessagePart, UIToolState } from './types.ts';
import {
  boolean,
  type FieldCheck,
  fileUrl,
  id,
  json,
  literal,
  mediaType,
  oneOf,
  providerMetadata,
  text,
  webUrl,
} from './ui-fields.ts';
import { invalidMessages } from './ui-request-error.ts';

/** The fields of one kind of object: those it must have, and those it may. */
interface Shape {
  required: Record<string, FieldCheck>;
  optional: Record<string, FieldCheck>;
  /** Fields it must not have, each with why (the state they belong to). */
  refused?: Record<string, string>;
}

const streamingState = oneOf(['streaming', 'done']);

/** The part types with fixed fields, and the roles that may send each. */
const SHAPES: Record<string, Shape & { roles: readonly UIMessage['role'][] }> = {
  text: {
    roles: ['system', 'user', 'assistant'],
    required: { text },
    optional: { state: streamingState, providerMetadata },
  },
  reasoning: {
    roles: ['assistant'],
    required: { text },
    optional: { state: streamingState, providerMetadata, id },
  },
  file: {
    roles: ['user', 'assistant'],
    required: { mediaType, url: fileUrl },
    optional: { filename: text, providerMetadata },
  },
  'source-url': {
    roles: ['assistant'],
    required: { sourceId: id, url: webUrl },
    optional: { title: text, providerMetadata },
  },
  'source-document': {
    roles: ['assistant'],
    required: { sourceId: id, mediaType, title: text },
    optional: { filename: text, providerMetadata },
  },
  'step-start': { roles: ['assistant'], required: {}, optional: {} },
};

/** What the error names as the allowed part types. */
const ALLOWED_TYPES = `${Object.keys(SHAPES)
  .map((type) => `"${type}"`)
  .join(', ')}, "tool-<name>", "dynamic-tool" or "data-<name>"`;

const TOOL_STATES: readonly UIToolState[] = [
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
];

const approvalShape = (approved?: FieldCheck): Shape => ({
  required: { id, ...(approved ? { approved } : {}) },
  optional: { reason: text },
  refused: approved ? {} : { approved: 'a response (state "approval-responded")' },
});

/** What the `approval` of a tool part must be in each state (absent: it must have none). */
const APPROVAL: Partial<Record<UIToolState, { shape: Shape; required: boolean }>> = {
  'approval-requested': { shape: approvalShape(), required: true },
  'approval-responded': { shape: approvalShape(boolean), required: true },
  'output-available': { shape: approvalShape(literal(true)), required: false },
  'output-error': { shape: approvalShape(literal(true)), required: false },
  'output-denied': { shape: approvalShape(literal(false)), required: true },
};

/** The fields of a tool part in each state, besides type, toolCallId and state. */
function toolShape(state: UIToolState): Shape {
  const shape: Shape = {
    required: {},
    optional: {
      title: text,
      providerExecuted: boolean,
      callProviderMetadata: providerMetadata,
      resultProviderMetadata: providerMetadata,
      toolMetadata: json,
      rawInput: json,
      inputEncoding: oneOf(['json', 'text']),
    },
    refused: {},
  };
  const inputOptional = state === 'input-streaming' || state === 'output-error';
  (inputOptional ? shape.optional : shape.required).input = json;
  if (state === 'output-available') {
    shape.required.output = json;
    shape.optional.preliminary = boolean;
  } else shape.refused!.output = 'a call that ran (state "output-available")';
  if (state === 'output-error') shape.required.errorText = text;
  else shape.refused!.errorText = 'a call that failed (state "output-error")';
  return shape;
}

/** Checks the fields of an object against `shape`; returns the checked copy. */
function checkShape(
  entries: Array<[string, unknown]>,
  path: string,
  shape: Shape,
  limits: ResolvedLimits,
  skip: readonly string[] = [],
): Record<string, unknown> {
  const fields = new Map(entries);
  const copy: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(shape.required)) {
    const value = fields.get(name);
    if (value === undefined)
      throw invalidMessages(`${path}.${name}`, describeCheck(name), 'nothing');
    copy[name] = check(value, `${path}.${name}`, limits);
  }
  for (const [name, value] of entries) {
    if (value === undefined || skip.includes(name) || Object.hasOwn(shape.required, name)) continue;
    const refused = shape.refused?.[name];
    if (refused !== undefined) {
      throw invalidMessages(
        `${path}.${name}`,
        `no ${name} except on ${refused}`,
        describeValue(value),
      );
    }
    const check = Object.hasOwn(shape.optional, name) ? shape.optional[name] : json;
    copy[name] = check(value, `${path}.${name}`, limits);
  }
  return copy;
}

const describeCheck = (name: string) => `a value for the required field "${name}"`;

/** A tool part (`tool-<name>` or `dynamic-tool`): its call id, state and the fields the state needs. */
function checkToolPart(
  type: string,
  entries: Array<[string, unknown]>,
  path: string,
  limits: ResolvedLimits,
): Record<string, unknown> {
  const fields = new Map(entries);
  const head: Record<string, unknown> = { type };
  if (type === 'dynamic-tool')
    head.toolName = id(fields.get('toolName'), `${path}.toolName`, limits);
  else id(type.slice('tool-'.length), `${path}.type (the tool's name after "tool-")`, limits);
  head.toolCallId = id(fields.get('toolCallId'), `${path}.toolCallId`, limits);
  const state = oneOf(TOOL_STATES)(fields.get('state'), `${path}.state`, limits) as UIToolState;
  head.state = state;
  const rest = checkShape(entries, path, toolShape(state), limits, [
    'type',
    'toolName',
    'toolCallId',
    'state',
    'approval',
  ]);
  const approval = APPROVAL[state];
  const given = fields.get('approval');
  if (approval && (given !== undefined || approval.required)) {
    if (!isObject(given)) {
      throw invalidMessages(
        `${path}.approval`,
        `an approval object in state "${state}"`,
        describeValue(given),
      );
    }
    const approvalPath = `${path}.approval`;
    rest.approval = checkShape(
      plainEntries(given, approvalPath),
      approvalPath,
      approval.shape,
      limits,
    );
  } else if (given !== undefined) {
    throw invalidMessages(
      `${path}.approval`,
      `no approval in state "${state}"`,
      describeValue(given),
    );
  }
  return { ...head, ...rest };
}

/** One part of a message of `role`, checked; a 400 names the part's path and what was expected. */
export function checkPart(
  value: unknown,
  path: string,
  role: UIMessage['role'],
  limits: ResolvedLimits,
): UIMessagePart {
  if (!isObject(value)) throw invalidMessages(path, 'a part object', describeValue(value));
  const entries = plainEntries(value, path);
  const type = new Map(entries).get('type');
  if (typeof type !== 'string') {
    throw invalidMessages(`${path}.type`, `a part type: ${ALLOWED_TYPES}`, describeValue(type));
  }
  const onlyAssistant = type.startsWith('tool-') || type === 'dynamic-tool';
  const shape = Object.hasOwn(SHAPES, type) ? SHAPES[type] : undefined;
  const roles = shape?.roles ?? (onlyAssistant ? ['assistant'] : ['user', 'assistant']);
  if (!shape && !onlyAssistant && !type.startsWith('data-')) {
    throw invalidMessages(
      `${path}.type`,
      `a known part type: ${ALLOWED_TYPES}`,
      describeValue(type),
    );
  }
  if (!roles.includes(role)) {
    throw invalidMessages(
      `${path}.type`,
      `a part a ${role} message may carry (${type} parts come from ${roles.join(' or ')} messages)`,
      describeValue(type),
    );
  }
  if (shape)
    return { type, ...checkShape(entries, path, shape, limits, ['type']) } as UIMessagePart;
  if (onlyAssistant) return checkToolPart(type, entries, path, limits) as unknown as UIMessagePart;
  return checkDataPart(type, entries, path, limits);
}

/** A `data-<name>` part: a name, an optional id and its data. */
function checkDataPart(
  type: string,
  entries: Array<[string, unknown]>,
  path: string,
  limits: ResolvedLimits,
): UIMessagePart {
  id(type.slice('data-'.length), `${path}.type (the data part's name after "data-")`, limits);
  const shape: Shape = { required: {}, optional: { id, data: json } };
  const copy = checkShape(entries, path, shape, limits, ['type']);
  if (!Object.hasOwn(copy, 'data'))
    throw invalidMessages(`${path}.data`, "the part's data", 'nothing');
  return { type, ...copy } as UIMessagePart;
}
