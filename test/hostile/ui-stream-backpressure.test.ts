/**
 * Attack: a client that never reads a UI message stream, while the model streams forever.
 * The server must not buffer without bound nor let the run go on forever: past
 * `limits.maxBufferedBytes` of unread events the stream ends and the run is aborted
 * (decision 247). Both through a `Response` nobody reads and through a real Node server
 * whose client socket never reads.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { agentUIResponse, nodeListener } from '../../src/ai/ui/index.ts';
import { endlessModel } from '../helpers/endless-model.ts';

const DELTA = 'x'.repeat(256);
/** One text-delta event of DELTA on the wire (≈ 310 bytes). */
const EVENT_BYTES = `data: {"type":"text-delta","id":"text-0-0","delta":"${DELTA}"}\n\n`.length;

let server: Server | undefined;
let socket: Socket | undefined;
afterEach(() => {
  socket?.destroy();
  server?.closeAllConnections();
  server?.close();
});

describe('a client that never reads', () => {
  it('a Response nobody reads: the run is aborted after ≈ maxBufferedBytes of events', async () => {
    const model = endlessModel(DELTA);
    const maxBufferedBytes = 256 * 1024;
    const response = agentUIResponse(agent({ model }), 'go', { limits: { maxBufferedBytes } });
    await model.aborted;
    // What was made and not read is bounded by the limit (plus the events in flight).
    expect(model.sent * EVENT_BYTES).toBeLessThan(maxBufferedBytes + 256 * EVENT_BYTES);
    const body = await response.text();
    expect(body.length).toBeLessThan(maxBufferedBytes + 2 * EVENT_BYTES);
    expect(body).toContain('STREAM_OVERFLOW');
  });

  it('a real socket that never reads: memory stays bounded and the run ends', async () => {
    const model = endlessModel(DELTA);
    server = createServer(
      nodeListener((request) =>
        agentUIResponse(agent({ model }), 'go', {
          signal: request.signal,
          limits: { maxBufferedBytes: 256 * 1024 },
        }),
      ),
    );
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const heapBefore = process.memoryUsage().heapUsed;
    socket = connect(port, '127.0.0.1');
    socket.pause(); // never reads a byte
    socket.write('POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
    await model.aborted; // the kernel's socket buffers fill, then fino's, then the run stops
    // Kernel buffers on loopback hold a few MiB; fino holds at most 256 KiB more.
    expect(model.sent * EVENT_BYTES).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);
});
