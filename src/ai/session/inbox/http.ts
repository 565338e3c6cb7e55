/**
 * The inbox's HTTP plumbing: responses with the security headers, refusals as
 * {@link HttpError}, ids read from the path and forms read from the body, both bounded.
 */
import { readBoundedBody } from '../../../internal/bounded-body.ts';
import type { Html } from './html.ts';
import { securityHeaders } from './security.ts';

/** A request body larger than this is refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Run and call ids longer than this, or with control characters, are refused with 400. */
const MAX_ID_LENGTH = 256;

/** A refusal the browser sees as a page with this status and message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The title of the page that shows an {@link HttpError} of each status. */
export const REFUSAL_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Too large',
  415: 'Unsupported form',
  503: 'Busy',
};

/** A response with the inbox's security headers (HTML unless `type` says otherwise). */
export function respond(
  body: Html | string | ReadableStream<Uint8Array>,
  init: { status?: number; type?: string; headers?: Record<string, string> } = {},
): Response {
  const headers = securityHeaders(init.type ?? 'text/html; charset=utf-8');
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.append(name, value);
  return new Response(body instanceof ReadableStream ? body : body.toString(), {
    status: init.status ?? 200,
    headers,
  });
}

/** A path segment decoded, or a 400 when it is malformed or not a plausible id. */
export function decodeId(segment: string, what: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `The ${what} in the address is not valid percent-encoding.`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (id === '' || id.length > MAX_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(id)) {
    throw new HttpError(
      400,
      `Expected a ${what} of 1 to ${MAX_ID_LENGTH} printable characters, received ${id.length} characters.`,
    );
  }
  return id;
}

/** Reads a form body of at most {@link MAX_BODY_BYTES}, without buffering more. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new HttpError(
      415,
      `Expected a form (application/x-www-form-urlencoded), received ${type === '' ? 'no content type' : type}.`,
    );
  }
  const body = await readBoundedBody(
    request,
    MAX_BODY_BYTES,
    () => new HttpError(413, `The form is larger than ${MAX_BODY_BYTES} bytes.`),
  );
  return new URLSearchParams(body.toString('utf8'));
}

/** A form field's text, trimmed; `undefined` when absent or blank. */
export const optionalText = (value: string | null) => {
  const text = value?.trim();
  return text ? text : undefined;
};
