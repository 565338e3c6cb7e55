/**
 * The refusal of a chat request: an HTTP status, a code and a message naming what was
 * wrong and what was expected, sent back as JSON (decision 248).
 */

/** The codes of {@link UIRequestError}, by status. */
export type UIRequestErrorCode =
  /** 400: the body is not JSON. */
  | 'INVALID_JSON'
  /** 400: the body is JSON but not a chat request (`id`, `trigger`, `messageId`). */
  | 'INVALID_REQUEST'
  /** 400: a message or part is not one the protocol allows, or passes a limit. */
  | 'INVALID_MESSAGES'
  /**
   * 400: an approval response or tool output answers no call the chat's run waits for
   * (a forged or foreign id, an output on a call awaiting approval, changed arguments).
   */
  | 'INVALID_TOOL_RESPONSE'
  /** 401: the chat handler's `auth` hook recognised no one. */
  | 'UNAUTHENTICATED'
  /** 403: the chat handler's `authorize` hook refused this chat to this caller. */
  | 'FORBIDDEN'
  /** 404: no route of the chat handler has this path. */
  | 'NOT_FOUND'
  /** 405: the route exists, the method does not. */
  | 'METHOD_NOT_ALLOWED'
  /** 409: the call was already decided (by another tab, or this response replayed). */
  | 'ALREADY_DECIDED'
  /** 409: a run of the chat is unfinished; answer or cancel it before a new message. */
  | 'THREAD_BUSY'
  /** 413: the body is larger than `ChatRequestLimits.bytes`. */
  | 'TOO_LARGE'
  /** 415: the body is not `application/json`. */
  | 'UNSUPPORTED_MEDIA_TYPE'
  /** 503: the chat handler streams its `maxStreams` already; try again shortly. */
  | 'TOO_MANY_STREAMS';

/** The HTTP statuses of {@link UIRequestError}. */
export type UIRequestErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 503;

/** The status each code is sent with. */
const STATUS: Readonly<Record<UIRequestErrorCode, UIRequestErrorStatus>> = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  INVALID_MESSAGES: 400,
  INVALID_TOOL_RESPONSE: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ALREADY_DECIDED: 409,
  THREAD_BUSY: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_STREAMS: 503,
};

/**
 * A chat request refused: `status` (400 to 415, by code), `code`, and a message naming the
 * field (`messages[3].parts[2].state`) and what was expected. `toResponse()` is the
 * answer to send: `{ error: { code, message } }` as JSON with that status.
 *
 * @example
 * ```ts
 * import { UIRequestError } from 'fino:ai/ui';
 *
 * const error = new UIRequestError('TOO_LARGE', 'Expected a body of at most 1048576 bytes.');
 * const response = error.toResponse();
 * console.log(response.status, await response.json()); // 413 { error: { code: 'TOO_LARGE', … } }
 * ```
 */
export class UIRequestError extends Error {
  override name = 'UIRequestError';
  readonly code: UIRequestErrorCode;
  readonly status: UIRequestErrorStatus;
  /** Headers the refusal needs: `allow` on a 405, `retry-after` on a 503. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: UIRequestErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
    this.headers = headers;
  }

  /** The refusal as a JSON response: `{ error: { code, message } }` with the status. */
  toResponse(): Response {
    return new Response(JSON.stringify({ error: { code: this.code, message: this.message } }), {
      status: this.status,
      headers: {
        ...this.headers,
        'content-type': 'application/json',
        'cache-control': 'no-store',
      },
    });
  }
}

/** A 400 `INVALID_MESSAGES` for the field at `path`: `<path>: expected …, received …`. */
export const invalidMessages = (path: string, expected: string, received: string) =>
  new UIRequestError('INVALID_MESSAGES', `${path}: expected ${expected}, received ${received}.`);
