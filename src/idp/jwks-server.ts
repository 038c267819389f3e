/**
 * The test identity provider's one server: every provider of a run serves its JWKS here,
 * each under its own path (/idp/<id>/jwks.json), so a service on another machine needs one
 * tunnel or one proxy rule to reach them all (README: "Reaching your service"). Each mount
 * counts how often it was fetched, so a check can tell whether a target re-fetched keys
 * after a rotation. A mount can also serve fixed documents beside its JWKS (an attacker's
 * JWKS or certificate named by a token's jku or x5u), each with its own count: a target
 * that fetches one has followed a URL it must never trust.
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
  /** Serves `body` at base + / + `name` (same origin, same path prefix as the JWKS). */
  hostBeside(name: string, contentType: string, body: string): HostedDocument;
  unmount(): void;
}

/** A fixed document served beside a JWKS. */
export interface HostedDocument {
  url: string;
  /** How many times the target fetched it (GET). */
  readonly fetchCount: number;
}

interface Served {
  contentType: string;
  body: () => string;
  fetches: number;
}

export class JwksServer {
  private readonly served = new Map<string, Served>();

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
    const server = options.tls
      ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler)
      : createHttpServer(handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const publicHost = options.publicHost ?? host;
    const publicUrl = (
      options.publicUrl ??
      `${options.tls ? 'https' : 'http'}://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`
    ).replace(/\/+$/, '');
    self = new JwksServer(server, port, publicUrl, new URL(publicUrl).pathname.replace(/\/+$/, ''));
    return self;
  }

  /** Serves `document()` (called on every fetch, so it reflects the current keys) under a fresh path. */
  mount(document: () => unknown): JwksMount {
    // Random: two providers never share URLs, and an issuer is not guessable from the port.
    const id = randomBytes(6).toString('hex');
    const prefix = `/idp/${id}`;
    const jwks = this.serve(`${prefix}/jwks.json`, 'application/json', () => JSON.stringify(document()));
    const base = `${this.publicUrl}${prefix}`;
    const paths = [`${prefix}/jwks.json`];
    return {
      base,
      url: `${base}/jwks.json`,
      get fetchCount() {
        return jwks.fetches;
      },
      hostBeside: (name, contentType, body) => {
        const path = `${prefix}/${encodeURIComponent(name)}`;
        paths.push(path);
        const served = this.serve(path, contentType, () => body);
        return {
          url: `${base}/${encodeURIComponent(name)}`,
          get fetchCount() {
            return served.fetches;
          },
        };
      },
      unmount: () => paths.forEach((path) => this.served.delete(path)),
    };
  }

  private serve(path: string, contentType: string, body: () => string): Served {
    const served: Served = { contentType, body, fetches: 0 };
    this.served.set(path, served);
    return served;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let path = (req.url ?? '/').split('?')[0] ?? '/';
    if (this.publicPrefix && path.startsWith(`${this.publicPrefix}/`)) path = path.slice(this.publicPrefix.length);
    const served = this.served.get(path);
    if (!served) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return void res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' })
        .end('{"error":"method not allowed"}');
    }
    if (req.method === 'GET') served.fetches += 1;
    const body = served.body();
    // no-store: keys rotate during a run, and the rotation check measures how soon the
    // target notices; a cache header of ours must not be the reason it does not.
    res.writeHead(200, {
      'content-type': served.contentType,
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** Stops listening and drops kept-alive connections, so the port is free when this resolves. */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
    this.server.closeAllConnections();
    await closed;
  }
}
