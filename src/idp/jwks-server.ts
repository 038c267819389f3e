/**
 * The test identity provider's one server: every provider of a run serves its JWKS here,
 * each under its own path (/idp/<id>/jwks.json), so a service on another machine needs one
 * tunnel or one proxy rule to reach them all (README: "Reaching your service"). Each mount
 * counts how often it was fetched, so a check can tell whether a target re-fetched keys
 * after a rotation.
 */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface JwksServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The base URL the target calls (a tunnel, a proxy); default http(s)://<publicHost or host>:<port>. */
  publicUrl?: string;
  /** Only the host name the target calls differs (a container calls the host by another name). */
  publicHost?: string;
  /** PEM certificate and key: serve HTTPS. Default plain HTTP, which the contract allows on loopback. */
  tls?: { cert: string; key: string };
}

/** One provider's JWKS on the server. */
export interface JwksMount {
  /** Public base URL of this provider (its default issuer): <server URL>/idp/<id>. */
  readonly base: string;
  /** base + /jwks.json */
  readonly url: string;
  /** GETs so far. */
  readonly fetchCount: number;
  unmount(): void;
}

interface Mounted {
  document: () => unknown;
  fetches: number;
}

export class JwksServer {
  private readonly mounts = new Map<string, Mounted>();

  private constructor(
    private readonly server: Server,
    /** The port it listens on (the one a tunnel must forward to). */
    readonly port: number,
    /** The base URL the target calls, without a trailing slash. */
    readonly publicUrl: string,
    /** A path the public URL adds in front of ours (a proxy's prefix), stripped from requests that carry it. */
    private readonly publicPrefix: string,
  ) {}

  static async listen(options: JwksServerOptions = {}): Promise<JwksServer> {
    const host = options.host ?? '127.0.0.1';
    let self: JwksServer | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => self?.handle(req, res);
    const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler) : createHttpServer(handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const publicHost = options.publicHost ?? host;
    const publicUrl = (options.publicUrl ?? `${options.tls ? 'https' : 'http'}://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`).replace(/\/+$/, '');
    self = new JwksServer(server, port, publicUrl, new URL(publicUrl).pathname.replace(/\/+$/, ''));
    return self;
  }

  /** Serves `document()` (called on every fetch, so it reflects the current keys) under a fresh path. */
  mount(document: () => unknown): JwksMount {
    // Random: two providers never share URLs, and an issuer is not guessable from the port.
    const id = randomBytes(6).toString('hex');
    const path = `/idp/${id}/jwks.json`;
    const mounted: Mounted = { document, fetches: 0 };
    this.mounts.set(path, mounted);
    const base = `${this.publicUrl}/idp/${id}`;
    return {
      base,
      url: `${base}/jwks.json`,
      get fetchCount() {
        return mounted.fetches;
      },
      unmount: () => void this.mounts.delete(path),
    };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let path = (req.url ?? '/').split('?')[0] ?? '/';
    if (this.publicPrefix && path.startsWith(`${this.publicPrefix}/`)) path = path.slice(this.publicPrefix.length);
    const mounted = this.mounts.get(path);
    if (!mounted) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end('{"error":"method not allowed"}');
    }
    if (req.method === 'GET') mounted.fetches += 1;
    const body = JSON.stringify(mounted.document());
    // no-store: keys rotate during a run, and the rotation check measures how soon the
    // target notices; a cache header of ours must not be the reason it does not.
    res.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** Stops listening and drops kept-alive connections, so the port is free when this resolves. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
    this.server.closeAllConnections();
    await closed;
  }
}
