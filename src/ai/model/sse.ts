/** One server-sent event: its `event:` name (when given) and its joined `data:` lines. */
export interface ServerSentEvent {
  event?: string;
  data: string;
}

/**
 * Parses a `text/event-stream` body into events, per the WHATWG rules: lines end with
 * LF, CR or CRLF; a blank line dispatches; `data:` lines join with LF; comments and
 * unknown fields are ignored. Chunk boundaries may fall anywhere, even inside a character.
 */
export async function* parseServerSentEvents(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];

  const line = (text: string): ServerSentEvent | undefined => {
    if (text === '') {
      const dispatched = data.length > 0 ? { event, data: data.join('\n') } : undefined;
      event = undefined;
      data = [];
      return dispatched;
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };

  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const char = buffer[i];
      if (char !== '\n' && char !== '\r') continue;
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (char === '\r' && i === buffer.length - 1) break;
      const dispatched = line(buffer.slice(start, i));
      if (char === '\r' && buffer[i + 1] === '\n') i++;
      start = i + 1;
      if (dispatched) yield dispatched;
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  if (buffer !== '') {
    const dispatched = line(buffer.replace(/\r$/, ''));
    if (dispatched) yield dispatched;
  }
  const last = line('');
  if (last) yield last;
}

/** A response body's chunks; leaving early cancels the body (closing the connection). */
export async function* responseChunks(response: Response): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
