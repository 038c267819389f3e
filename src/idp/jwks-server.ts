/**
 * A loopback HTTP server that serves one JSON document (the JWKS) at one path and
 * counts how often it was fetched, so a check can tell whether a target re-fetched
 * keys after a rotation. It can also serve fixed documents at other paths (an
 * attacker's JWKS or certificate named by a token's jku or x5u), each with its own
 * count: a target that fetches one has followed a URL it must never trust.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JwksServerOptions {
  host: string;
  port: number;
  path: string;
  /** Called on every fetch, so the document always reflects the current keys. */
  document: () => unknown;
}

/** A fixed document served at a path of its own. */
interface Hosted {
  contentType: string;
  body: string;
  fetchCount: number;
}

export class JwksServer {
  fetchCount = 0;
  private readonly hosted = new Map<string, Hosted>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async listen(options: JwksServerOptions): Promise<JwksServer> {
    let self: JwksServer | undefined;
    const server = createServer((req, res) => {
      if (self) self.handle(req, res, options);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    self = new JwksServer(server, `http://${host}:${port}`);
    return self;
  }

  private handle(req: IncomingMessage, res: ServerResponse, options: JwksServerOptions): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const hosted = this.hosted.get(path);
    if (path !== options.path && !hosted) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end('{"error":"method not allowed"}');
    }
    if (req.method === 'GET') {
      if (hosted) hosted.fetchCount += 1;
      else this.fetchCount += 1;
    }
    const body = hosted ? hosted.body : JSON.stringify(options.document());
    // no-store: keys rotate during a run, and the rotation check measures how soon the
    // target notices; a cache header of ours must not be the reason it does not.
    res.writeHead(200, {
      'content-type': hosted ? hosted.contentType : 'application/json',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** Serves `body` at `path` from now on; returns a reader of its fetch count. */
  host(path: string, contentType: string, body: string): () => number {
    const hosted: Hosted = { contentType, body, fetchCount: 0 };
    this.hosted.set(path, hosted);
    return () => hosted.fetchCount;
  }

  /** Stops listening and drops kept-alive connections, so the port is free when this resolves. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
    this.server.closeAllConnections();
    await closed;
  }
}
