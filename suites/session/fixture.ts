/**
 * A workspace whose identity provider is a test identity provider of this check:
 * configured through the control interface (identity-provider, members), with one
 * member to mint tokens for. Every token made here is registered for masking before
 * it can reach a request, let alone a report.
 */
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, type Scope, type WorkspaceOptions } from '../../src/control/types.js';
import { TestIdentityProvider, type MintOptions } from '../../src/idp/index.js';
import { registerSecret } from '../../src/secrets/mask.js';
import { sharedJwksServer } from '../../src/suite/identity-provider.js';
import type { CheckContext, TestWorkspace } from '../../src/suite/index.js';

/**
 * A subject no workspace has heard of, shaped like real providers' (`auth0|…`, an e-mail): a
 * pipe, mixed case, a dot, a plus and an @, which a store that trims, folds case or splits
 * on punctuation would change.
 */
export const newSubject = (): string => `auth0|Certify.User+${randomBytes(6).toString('hex')}@Example.test`;

/** A fresh audience, for a second workspace that shares a provider: a URL, as many providers use. */
export const newAudience = (): string => `https://API.certify.example/Aud-${randomBytes(6).toString('hex')}`;

/** Registers a credential for masking and hands it back: wrap every token a check sends. */
export function secret(token: string): string {
  registerSecret(token);
  return token;
}

/**
 * A provider for this check only (checks run concurrently; rotation changes its keys), a
 * path on the run's one JWKS server (IDP_ settings), removed when the check ends.
 */
export async function startProvider(t: CheckContext): Promise<TestIdentityProvider> {
  const idp = await TestIdentityProvider.start({ server: await sharedJwksServer(t.run) });
  t.defer(() => idp.close());
  return idp;
}

export interface SessionWorkspaceOptions {
  /** Share a provider between workspaces; default a new one. */
  idp?: TestIdentityProvider;
  /** Default the provider's audience. */
  audience?: string;
  /** The first member's scopes; default all five. */
  scopes?: readonly Scope[];
  workspace?: WorkspaceOptions;
}

export interface SessionWorkspace {
  idp: TestIdentityProvider;
  workspace: TestWorkspace;
  audience: string;
  /** The first member's subject. */
  subject: string;
  /** Adds a member; returns its subject. */
  addMember(scopes: readonly Scope[], subject?: string): Promise<string>;
  /** A token for the first member (or `sub`) and this workspace's audience, masked. */
  mint(options?: Partial<MintOptions>): Promise<string>;
  /** The claims `mint` would sign, for the forging helpers. */
  claims(options?: { sub?: string; claims?: Record<string, unknown> }): ReturnType<TestIdentityProvider['claimsFor']>;
}

export async function sessionWorkspace(
  t: CheckContext,
  options: SessionWorkspaceOptions = {},
): Promise<SessionWorkspace> {
  const idp = options.idp ?? (await startProvider(t));
  const audience = options.audience ?? idp.audience;
  const workspace = await t.workspace(options.workspace);
  await workspace.setIdentityProvider({ issuer: idp.issuer, jwksUri: idp.jwksUri, audience });
  const addMember = async (scopes: readonly Scope[], subject = newSubject()) => {
    await workspace.addMember(subject, scopes);
    return subject;
  };
  const subject = await addMember(options.scopes ?? ALL_SCOPES);
  return {
    idp,
    workspace,
    audience,
    subject,
    addMember,
    mint: async (mint = {}) =>
      secret(await idp.mint({ sub: subject, ...mint, claims: { aud: audience, ...mint.claims } })),
    claims: (claims = {}) => idp.claimsFor({ sub: claims.sub ?? subject, claims: { aud: audience, ...claims.claims } }),
  };
}
