/**
 * The test identity provider: RS256 and ES256 signing keys, their JWKS served by the
 * run's JWKS server (./jwks-server.ts), key rotation, and session tokens with chosen
 * claims. A target is pointed at it through the control interface
 * (PUT /workspaces/{ws}/identity-provider).
 */
import { InternalError } from '../errors.js';
import { randomBytes } from 'node:crypto';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import { sessionClaims } from './claims.js';
import { JwksServer, type HostedDocument, type JwksMount } from './jwks-server.js';

export type { HostedDocument };
import { generateSigningKey, publicKeyPem, type SigningAlg, type SigningKey } from './keys.js';
import { signClaims, signPayloadText } from './sign.js';

export interface IdentityProviderOptions {
  /** The run's JWKS server, shared by every provider; default a loopback server of this provider's own, closed with it. */
  server?: JwksServer;
  /** Default: this provider's own base URL (<server URL>/idp/<random>). */
  issuer?: string;
  /** Default: a random URL-shaped audience, mixed case (`https://API.certify.example/Aud-…`). */
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

export class TestIdentityProvider {
  /** Every key ever made, listed or not, so a removed key can still sign. */
  private readonly keys = new Map<string, SigningKey>();
  private readonly listed = new Set<string>();

  private constructor(
    private readonly mounted: JwksMount,
    /** Set when this provider started its own server: closed with it. */
    private readonly ownServer: JwksServer | undefined,
    readonly issuer: string,
    readonly audience: string,
  ) {}

  static async start(options: IdentityProviderOptions = {}): Promise<TestIdentityProvider> {
    const ownServer = options.server ? undefined : await JwksServer.listen();
    const server = options.server ?? ownServer!;
    let provider: TestIdentityProvider | undefined;
    const mounted = server.mount(() => provider?.jwks() ?? { keys: [] });
    provider = new TestIdentityProvider(
      mounted,
      ownServer,
      options.issuer ?? mounted.base,
      options.audience ?? `https://API.certify.example/Aud-${randomBytes(6).toString('hex')}`,
    );
    try {
      await provider.addKey('RS256');
      await provider.addKey('ES256');
    } catch (error) {
      await provider.close();
      throw error;
    }
    return provider;
  }

  /** The JWKS URL as the target must call it. */
  get jwksUri(): string {
    return this.mounted.url;
  }

  /** How many times the JWKS was fetched (GET) since start. */
  get jwksFetchCount(): number {
    return this.mounted.fetchCount;
  }

  /**
   * Serves `body` next to the JWKS (same origin, same path prefix), as an attacker who
   * can place a file on the provider's host would: a target that allow-lists jku or x5u
   * URLs by origin or prefix is fooled as much as one that follows any URL.
   */
  hostForeign(name: string, contentType: string, body: string): HostedDocument {
    return this.mounted.hostBeside(`${randomBytes(4).toString('hex')}-${name}`, contentType, body);
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
    if (!kid) throw new InternalError(`the identity provider lists no ${alg} key`);
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
    if (options.alg && options.alg !== key.alg)
      throw new InternalError(`key ${key.kid} is ${key.alg}, not ${options.alg}`);
    return signClaims(this.claimsFor(options), {
      alg: key.alg,
      privateKey: key.privateKey,
      kid: key.kid,
      header: options.header,
    });
  }

  /** A token whose payload is `text` exactly (a claim given twice, say), signed by the newest listed key of `alg`. */
  mintText(text: string, alg: SigningAlg = 'RS256'): Promise<string> {
    const key = this.key(this.kidFor(alg));
    return signPayloadText(text, { alg, privateKey: key.privateKey, kid: key.kid });
  }

  /** Stops serving this provider's JWKS (and its own server, if it started one). */
  async close(): Promise<void> {
    this.mounted.unmount();
    await this.ownServer?.close();
  }

  private key(kid: string): SigningKey {
    const key = this.keys.get(kid);
    if (!key) throw new InternalError(`the identity provider has no key ${kid}`);
    return key;
  }
}
