/** An express app (a receiver under test) served over HTTPS on a free loopback port; close() also ends its kept-alive connections. */
import { createServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Express } from 'express';

export interface ServedApp {
  /** https://127.0.0.1:<port><path> */
  url: string;
  close(): Promise<void>;
}

export async function serveHttps(
  app: Express,
  tls: { cert: string; key: string },
  path = '/webhooks',
): Promise<ServedApp> {
  const server = createServer({ cert: tls.cert, key: tls.key }, app);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `https://127.0.0.1:${port}${path}`,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
