/**
 * A TCP proxy on 127.0.0.1 in front of a server, that can stop forwarding as a network
 * partition does: `blackhole()` keeps every connection open but passes no byte either
 * way any more, and accepts new connections that never reach the server; nothing is
 * reset, so only the client's own timeouts notice. `heal()` forwards new connections
 * again (the ones cut off stay dead, as their peers gave up on them).
 *
 * @example
 * ```ts
 * const proxy = await tcpProxy(5432);
 * // … connect to 127.0.0.1:proxy.port …
 * proxy.blackhole();
 * proxy.heal();
 * await proxy.close();
 * ```
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  let holes = false;
  const sockets = new Set<Socket>();
  const cutOff = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (holes) {
      cutOff.add(client);
      client.pause();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    client.on('data', (chunk) => {
      if (!cutOff.has(client)) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!cutOff.has(client)) client.write(chunk);
    });
    // A real end is passed on while forwarding; after the partition nothing is.
    client.on('close', () => cutOff.has(client) || upstream.destroy());
    upstream.on('close', () => cutOff.has(client) || client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    blackhole() {
      holes = true;
      for (const socket of sockets) cutOff.add(socket);
    },
    heal() {
      holes = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
