/**
 * Turns whatever an executor returned into the tool_result contract, or refuses it with
 * an {@link InvalidResultError} when it is not a tool result. Decisions 020 and 059.
 */

import { describeValue } from '../internal/describe-value.ts';
import { checkOptionalType } from '../internal/option-type.ts';
import { errorMessage } from '../internal/thrown-value.ts';
import type { ContentPart, DocumentPart, ResourcePart, ToolResultObject } from './content.ts';
import { excerpt } from './error-text.ts';
import { InvalidResultError } from './errors.ts';

/** One thing wrong with a returned value; becomes the reason of an `InvalidResultError`. */
class Malformed extends Error {}

/** The longest reason an invalid result is reported with. */
const MAX_REASON_CHARS = 300;

/**
 * A string becomes `{ content }`; an object with `content` is checked and copied (only
 * `content`, `isError` and a JSON copy of `structuredContent`, and only the known fields
 * of each part); anything else becomes
 * its JSON text (`undefined` an empty string). Text the executor wrote through its writer
 * comes first. Throws an {@link InvalidResultError} naming `taskName` for a value that is
 * none of these: malformed content, a part of unknown type or with a missing field, a
 * value JSON cannot represent, or one whose properties cannot be read.
 */
export function normalizeResult(taskName: string, value: unknown, written = ''): ToolResultObject {
  // The common case, first and small enough to be inlined into the caller.
  if (typeof value === 'string') return { content: written + value };
  try {
    return normalize(value, written);
  } catch (error) {
    const reason =
      error instanceof Malformed ? error.message : `reading it threw: ${errorMessage(error)}`;
    throw new InvalidResultError(taskName, excerpt(reason, MAX_REASON_CHARS));
  }
}

function normalize(value: unknown, written: string): ToolResultObject {
  if (value === undefined) return { content: written };
  if (typeof value === 'object' && value !== null && 'content' in value) {
    return contentResult(value as Record<string, unknown>, written);
  }
  return { content: written + toJson(value) };
}

function toJson(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new Malformed(`it cannot be serialized as JSON: ${errorMessage(error)}`);
  }
  if (json === undefined) {
    throw new Malformed(
      `expected a string, a { content } object or a JSON value, received ${describeValue(value)}`,
    );
  }
  return json;
}

function contentResult(value: Record<string, unknown>, written: string): ToolResultObject {
  const { content, isError, structuredContent } = value;
  checkOptionalType(isError, 'boolean', 'isError', (message) => new Malformed(message));
  const result: ToolResultObject = { content: checkContent(content) };
  if (written !== '') {
    const rest = result.content;
    result.content = [
      { type: 'text', text: written },
      ...(typeof rest === 'string'
        ? [{ type: 'text' as const, text: rest }]
        : Array.isArray(rest)
          ? rest
          : [rest]),
    ];
  }
  if (isError !== undefined) result.isError = isError;
  if (structuredContent !== undefined) {
    if (
      typeof structuredContent !== 'object' ||
      structuredContent === null ||
      Array.isArray(structuredContent)
    ) {
      throw new Malformed(
        `structuredContent: expected a JSON object, received ${describeValue(structuredContent)}`,
      );
    }
    // A JSON copy: only plain data crosses, whatever object the executor handed over.
    result.structuredContent = JSON.parse(toJson(structuredContent));
  }
  return result;
}

function checkContent(content: unknown): ToolResultObject['content'] {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts: ContentPart[] = [];
    for (let i = 0; i < content.length; i++) parts.push(checkPart(content[i], `content[${i}]`));
    return parts;
  }
  if (typeof content === 'object' && content !== null) return checkPart(content, 'content');
  throw new Malformed(
    `content: expected a string, a content part or an array of content parts, received ${describeValue(content)}`,
  );
}

const PART_TYPES = '"text", "image", "audio", "document" or "resource"';

/** A copy of `value` with only the fields of its part type, each checked. */
function checkPart(value: unknown, at: string): ContentPart {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Malformed(`${at}: expected a content part object, received ${describeValue(value)}`);
  }
  const part = value as Record<string, unknown>;
  const type = part.type;
  switch (type) {
    case 'text':
      return { type, text: text(part, 'text', at) };
    case 'image':
    case 'audio':
      return { type, mediaType: text(part, 'mediaType', at), data: text(part, 'data', at) };
    case 'document': {
      const document: DocumentPart = {
        type,
        mediaType: text(part, 'mediaType', at),
        data: text(part, 'data', at),
      };
      const name = optionalText(part, 'name', at);
      if (name !== undefined) document.name = name;
      return document;
    }
    case 'resource': {
      const resource: ResourcePart = { type, uri: text(part, 'uri', at) };
      for (const key of ['mediaType', 'text', 'data'] as const) {
        const field = optionalText(part, key, at);
        if (field !== undefined) resource[key] = field;
      }
      return resource;
    }
    default:
      throw new Malformed(`${at}.type: expected ${PART_TYPES}, received ${describeValue(type)}`);
  }
}

function text(part: Record<string, unknown>, key: string, at: string): string {
  const field = part[key];
  if (typeof field !== 'string') {
    throw new Malformed(`${at}.${key}: expected a string, received ${describeValue(field)}`);
  }
  return field;
}

function optionalText(part: Record<string, unknown>, key: string, at: string): string | undefined {
  const field = part[key];
  if (field !== undefined && typeof field !== 'string') {
    throw new Malformed(
      `${at}.${key}: expected a string or nothing, received ${describeValue(field)}`,
    );
  }
  return field;
}
