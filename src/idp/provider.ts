/**
 * The test identity provider: RS256 and ES256 signing keys, their JWKS served on
 * loopback, key rotation, and session tokens with chosen claims. A target is pointed
 * at it through the control interface (PUT /workspaces/{ws}/identity-provider).
 */
import { randomBytes } from 'node:crypto';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import { sessionClaims } from './claims.js';
import { JwksServer } from './jwks-server.js';
import { generateSigningKey, publicKeyPem, type SigningAlg, type SigningKey } from './keys.js';
import { signClaims, signPayloadText } from './sign.js';

export interface IdentityProviderOptions {
  /** Default 127.0.0.1: the contract allows a plain-HTTP JWKS on loopback only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The host the target calls the JWKS by, when not `host` (a container calls the host by another name). */
  publicHost?: string;
  /** Default: this provider's own URL (http://host:port/<random>). */
  issuer?: string;
  /** Default: a random 'aud-…'. */
  audience?: string;
}

export interface MintOptions {
  sub: string;
  /** Which key signs when no kid is given; default RS256. */
  alg?: SigningAlg;
  /** A key of this provider, listed or removed (a removed key still signs: that is the rotation test). */
  kid?: string;
  /** Default 60. */
  lifetimeSec?: number;
  /** Default 0; -61 mints a token issued 61 s ago. */
  issuedAtOffsetSec?: number;
  /** Override iss/aud/nbf/exp/…; undefined removes a claim. */
  claims?: Record<string, unknown>;
  /** Override header parameters (a kid the JWKS does not list, say); the signature stays valid. */
  header?: Record<string, unknown>;
}

export type ClaimsOptions = Omit<MintOptions, 'alg' | 'kid' | 'header'>;

/** A document the provider's server hosts for an attacker (see `hostForeign`). */
export interface HostedDocument {
  url: string;
  /** How many times the target fetched it (GET). */
  readonly fetchCount: number;
}

export class TestIdentityProvider {
  /** Every key ever made, listed or not, so a removed key can still sign. */
  private readonly keys = new Map<string, SigningKey>();
  private readonly listed = new Set<string>();

  private constructor(
    private readonly server: JwksServer,
    readonly issuer: string,
    readonly audience: string,
    readonly jwksUri: string,
  ) {}

  static async start(options: IdentityProviderOptions = {}): Promise<TestIdentityProvider> {
    // A random path segment: two providers on one host never share URLs, and the
    // issuer is not guessable from the port alone.
    const base = `/${randomBytes(6).toString('hex')}`;
    let provider: TestIdentityProvider | undefined;
    const server = await JwksServer.listen({
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      path: `${base}/jwks.json`,
      document: () => provider?.jwks() ?? { keys: [] },
    });
    const origin = options.publicHost ? `http://${options.publicHost}:${new URL(server.origin).port}` : server.origin;
    provider = new TestIdentityProvider(
      server,
      options.issuer ?? `${origin}${base}`,
      options.audience ?? `aud-${randomBytes(6).toString('hex')}`,
      `${origin}${base}/jwks.json`,
    );
    try {
      await provider.addKey('RS256');
      await provider.addKey('ES256');
    } catch (error) {
      await server.close();
      throw error;
    }
    return provider;
  }

  /** How many times the JWKS was fetched (GET) since start. */
  get jwksFetchCount(): number {
    return this.server.fetchCount;
  }

  /**
   * Serves `body` next to the JWKS (same origin, same path prefix), as an attacker who
   * can place a file on the provider's host would: a target that allow-lists jku or x5u
   * URLs by origin or prefix is fooled as much as one that follows any URL.
   */
  hostForeign(name: string, contentType: string, body: string): HostedDocument {
    const url = new URL(`${randomBytes(4).toString('hex')}-${name}`, this.jwksUri);
    const count = this.server.host(url.pathname, contentType, body);
    return { url: url.href, get fetchCount() { return count(); } };
  }

  /** Kids the JWKS lists now, oldest first. */
  get activeKids(): string[] {
    return [...this.listed];
  }

  /** The JWKS document as served. */
  jwks(): JSONWebKeySet {
    return { keys: [...this.listed].map((kid) => this.key(kid).publicJwk) };
  }

  /** Creates a key and lists it in the JWKS; returns its kid. */
  async addKey(alg: SigningAlg): Promise<string> {
    const key = await generateSigningKey(alg);
    this.keys.set(key.kid, key);
    this.listed.add(key.kid);
    return key.kid;
  }

  /** Rotation: the JWKS no longer lists the key (it can still sign, for tests). */
  removeKey(kid: string): void {
    this.key(kid);
    this.listed.delete(kid);
  }

  /** The newest listed key of the algorithm. */
  kidFor(alg: SigningAlg): string {
    const kid = [...this.listed].reverse().find((candidate) => this.key(candidate).alg === alg);
    if (!kid) throw new Error(`the identity provider lists no ${alg} key`);
    return kid;
  }

  /** SPKI PEM of a key's public half (for the HS256 key-confusion forge). */
  publicKeyPem(kid: string): Promise<string> {
    return publicKeyPem(this.key(kid));
  }

  /** The claims `mint` would sign, for forging helpers that sign them otherwise. */
  claimsFor(options: ClaimsOptions): JWTPayload {
    return sessionClaims({ issuer: this.issuer, audience: this.audience, ...options });
  }

  async mint(options: MintOptions): Promise<string> {
    const key = this.key(options.kid ?? this.kidFor(options.alg ?? 'RS256'));
    if (options.alg && options.alg !== key.alg) throw new Error(`key ${key.kid} is ${key.alg}, not ${options.alg}`);
    return signClaims(this.claimsFor(options), { alg: key.alg, privateKey: key.privateKey, kid: key.kid, header: options.header });
  }

  /** A token whose payload is `text` exactly (a claim given twice, say), signed by the newest listed key of `alg`. */
  mintText(text: string, alg: SigningAlg = 'RS256'): Promise<string> {
    const key = this.key(this.kidFor(alg));
    return signPayloadText(text, { alg, privateKey: key.privateKey, kid: key.kid });
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private key(kid: string): SigningKey {
    const key = this.keys.get(kid);
    if (!key) throw new Error(`the identity provider has no key ${kid}`);
    return key;
  }
}
