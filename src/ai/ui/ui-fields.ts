/**
 * The field checks of posted UI messages, one per kind of field: ids, texts, media
 * types, URLs, states, provider metadata. Each returns the field's checked value or
 * throws a 400 naming the field's path and what was expected (decision 248).
 */
import { describeValue } from '../../internal/describe-value.ts';
import { isPrintableText } from '../../internal/printable-text.ts';
import type { ResolvedLimits } from './chat-request-limits.ts';
import { checkedJson, isObject } from './json-value.ts';
import { invalidMessages } from './ui-request-error.ts';

/** Checks one field at `path`; returns its checked copy. */
export type FieldCheck = (value: unknown, path: string, limits: ResolvedLimits) => unknown;

const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+*-]+(?:\s*;.*)?$/;
const MAX_MEDIA_TYPE = 255;
/** The longest source or file URL that is not a `data:` URL. */
const MAX_URL = 8_192;

/**
 * An id: 1 to `idLength` characters of printable, well-formed text (no control character,
 * no lone surrogate: a store would keep it changed, or refuse it).
 */
export const id: FieldCheck = (value, path, limits) => {
  if (isPrintableText(value) && value.length <= limits.idLength) return value;
  throw invalidMessages(
    path,
    `an id of 1 to ${limits.idLength} characters without control characters or lone surrogates`,
    typeof value === 'string' ? `${value.length} characters${flaw(value)}` : describeValue(value),
  );
};

/** What makes a string no id: a control character, or a lone surrogate. */
function flaw(text: string): string {
  if (/\p{Cc}/u.test(text)) return ' with a control character';
  return /\p{Cs}/u.test(text) ? ' with a lone surrogate' : '';
}

/** A text of at most `textLength` characters. */
export const text: FieldCheck = (value, path, limits) => {
  if (typeof value !== 'string') throw invalidMessages(path, 'a string', describeValue(value));
  if (value.length > limits.textLength) {
    throw invalidMessages(
      path,
      `a text of at most ${limits.textLength} characters`,
      `${value.length} characters`,
    );
  }
  return value;
};

/** `true` or `false`. */
export const boolean: FieldCheck = (value, path) => {
  if (typeof value !== 'boolean') throw invalidMessages(path, 'a boolean', describeValue(value));
  return value;
};

/** Any JSON value, nested at most `depth` deep. */
export const json: FieldCheck = (value, path, limits) => checkedJson(value, path, limits.depth);

/** Provider metadata: an object of JSON objects, by provider name. */
export const providerMetadata: FieldCheck = (value, path, limits) => {
  const copy = checkedJson(value, path, limits.depth);
  if (!isObject(copy) || !Object.values(copy).every(isObject)) {
    throw invalidMessages(path, 'an object of JSON objects by provider name', describeValue(value));
  }
  return copy;
};

/** A media type such as `image/png` (parameters allowed). */
export const mediaType: FieldCheck = (value, path) => {
  if (typeof value !== 'string' || value.length > MAX_MEDIA_TYPE || !MEDIA_TYPE.test(value)) {
    throw invalidMessages(path, 'a media type such as "image/png"', describeValue(value));
  }
  return value;
};

/** An `http:` or `https:` URL of at most 8 192 characters. */
export const webUrl: FieldCheck = (value, path) => {
  if (typeof value === 'string' && value.length <= MAX_URL && isWebUrl(value)) return value;
  throw invalidMessages(path, 'an http(s) URL of at most 8192 characters', describeValue(value));
};

/**
 * A file's URL: a `data:` URL (its size bounded by the body's; base64 ones must hold
 * base64) or an http(s) URL.
 */
export const fileUrl: FieldCheck = (value, path, limits) => {
  const header = typeof value === 'string' ? /^data:([^,]*),/i.exec(value) : null;
  if (header === null) return webUrl(value, path, limits);
  const payload = (value as string).slice(header[0].length);
  if (/;base64$/i.test(header[1]) && !/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) {
    throw invalidMessages(path, 'a data: URL whose ;base64 payload is base64', 'other characters');
  }
  return value;
};

const isWebUrl = (value: string) => {
  if (!/^https?:\/\//i.test(value)) return false;
  return URL.canParse(value);
};

/** One of `values`. */
export const oneOf =
  (values: readonly string[]): FieldCheck =>
  (value, path) => {
    if (typeof value === 'string' && values.includes(value)) return value;
    throw invalidMessages(
      path,
      `one of ${values.map((v) => `"${v}"`).join(', ')}`,
      describeValue(value),
    );
  };

/** Exactly `expected` (a literal such as `approved: false` in `output-denied`). */
export const literal =
  (expected: boolean): FieldCheck =>
  (value, path) => {
    if (value === expected) return value;
    throw invalidMessages(path, String(expected), describeValue(value));
  };
