/**
 * A request body read with a byte limit: a declared `Content-Length` over it is refused
 * before reading, and the bytes are counted as they arrive, so a larger body is refused
 * (the rest of it cancelled, never buffered) once it passes the limit. One rule for every
 * HTTP surface of the package (the inbox's forms, `fino:ai/ui`'s chat requests).
 */

/**
 * The body's bytes, at most `limit` of them; past it, reading stops and `tooLarge()` is
 * thrown.
 *
 * @example
 * ```ts
 * import { readBoundedBody } from './bounded-body.ts';
 *
 * const request = new Request('http://localhost/', { method: 'POST', body: 'hello' });
 * const bytes = await readBoundedBody(request, 1024, () => new Error('too large'));
 * console.log(bytes.toString('utf8')); // hello
 * ```
 */
export async function readBoundedBody(
  request: Request,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}
