import { createServer } from 'node:net';

/**
 * A URL beside the receiver's own on which nothing listens, so that the service's delivery
 * attempts to it are refused at connect (ECONNREFUSED). No endpoint of a listening receiver
 * can refuse: by the time a request reaches one, its connection was accepted. Such attempts
 * leave no trace here; what the service does about them is read through the control interface.
 *
 * The port is taken from the kernel and released at once: a port in use by nothing is what
 * is wanted, and one taken by something else later still gives the service no 2xx.
 */
export async function refusingUrl(publicUrl: string, listenHost: string, path = '/hooks/refused'): Promise<string> {
  const port = await releasedPort(listenHost);
  const url = new URL(publicUrl);
  url.port = String(port);
  url.pathname = path;
  return url.toString();
}

function releasedPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('no TCP address to release'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
