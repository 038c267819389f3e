import { z } from 'zod';
import { createIdentityProvider } from '../auth/session.js';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  blipOtherTokens,
  issueToken,
  revokeToken,
  STORE_ROUND_TRIP_MS,
  tokenLimitRefusal,
  WIDE_STORE_ROUND_TRIP_MS,
} from '../auth/tokens.js';
import { unionFaults } from '../faults.js';
import { newId } from '../ids.js';
import { ALL_SCOPES } from '../store.js';
import { NO_WORKSPACE, invalid, refuse, workspaceOf, type ControlHandler } from './reply.js';

// The dashboard's token page and the workspace's identity provider settings.

/** Fault revoked-token-revived-by-create: how old the page's copy of the token list is. */
const STALE_PAGE_MS = 60_000;

const tokenSchema = z.object({
  label: z.string().max(200).optional(),
  scopes: z.array(z.enum(ALL_SCOPES)).optional(),
});

export const createToken: ControlHandler = async (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const parsed = tokenSchema.safeParse(request.body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const { app } = request;
  if (parsed.data.scopes?.length === 0 && app.personality.emptyScopesRefused)
    return refuse(422, 'empty_scopes', 'scopes may be omitted (all licensed scopes) but not empty');
  const faults = unionFaults(request.faults, workspace.faults);
  const checkThenInsert = faults.has('token-limit-check-then-insert');
  if (checkThenInsert) {
    const refusal = tokenLimitRefusal(workspace, faults);
    if (refusal) return refuse(refusal.status, refusal.code, refusal.message);
    await sleep(STORE_ROUND_TRIP_MS);
  }
  // Fault token-empty-label-defaulted: the form's default label fills an empty one.
  const given =
    faults.has('token-empty-label-defaulted') && parsed.data.label === ''
      ? 'Untitled token'
      : (parsed.data.label ?? '');
  // Fault token-label-truncated-32: the label column is a varchar(32).
  // Fault token-label-trimmed: the label is trimmed before it is stored.
  // Fault token-label-html-escaped: an input sanitiser escapes the label for HTML before it is stored.
  const label = faults.has('token-label-truncated-32')
    ? given.slice(0, 32)
    : faults.has('token-label-trimmed')
      ? given.trim()
      : faults.has('token-label-html-escaped')
        ? htmlEscaped(given)
        : // Fault token-label-nfkc: labels are normalised (NFKC) so that look-alikes compare equal.
          faults.has('token-label-nfkc')
          ? given.normalize('NFKC')
          : // Fault token-label-whitespace-collapsed: a form clean-up collapses inner whitespace runs.
            faults.has('token-label-whitespace-collapsed')
            ? given.replace(/(?<=\S)\s+(?=\S)/g, ' ')
            : // Fault token-label-emoji-dropped: a utf8mb3 column keeps only Basic Multilingual Plane characters.
              faults.has('token-label-emoji-dropped')
              ? given.replace(/[\u{10000}-\u{10FFFF}]/gu, '')
              : // Fault token-label-lowercased: the label is stored through a case-folding column.
                faults.has('token-label-lowercased')
                ? given.toLowerCase()
                : // Fault token-label-json-escaped: the label is stored JSON-encoded (quotes stripped) and read back unparsed.
                  faults.has('token-label-json-escaped')
                  ? JSON.stringify(given).slice(1, -1)
                  : given;
  if (faults.has('token-same-label-replaces')) {
    // Fault: tokens are upserted by label, so a new one with a taken label replaces the old.
    for (const other of workspace.tokens.values())
      if (other.revokedAt === null && other.label === label) revokeToken(workspace, other.id, app.config.clock, faults);
  }
  const issued = issueToken(
    app.store,
    workspace,
    { label, scopes: parsed.data.scopes },
    app.config.environment,
    faults,
    checkThenInsert,
  );
  if (!issued.ok) {
    // Fault token-limit-429: the limit refusal is answered as a quota, with 429.
    const status = issued.status === 409 && faults.has('token-limit-429') ? 429 : issued.status;
    return refuse(status, issued.code, issued.message);
  }
  // Fault token-answer-read-back-by-label: the answer is the row read back by workspace and label, the oldest first.
  const { token } = issued;
  const shown = faults.has('token-answer-read-back-by-label')
    ? ([...workspace.tokens.values()].find((t) => t.revokedAt === null && t.label === token.label) ?? token)
    : token;
  // Fault token-create-lifts-suspension: the token page saves the workspace row with its new token, suspended taken from the form's default.
  if (faults.has('token-create-lifts-suspension')) workspace.suspended = false;
  // Fault revoked-token-revived-by-create: the token list is saved whole, as the page read it a minute before.
  if (faults.has('revoked-token-revived-by-create')) {
    const now = app.config.clock.now();
    for (const other of workspace.tokens.values())
      if (other !== token && other.revokedAt !== null && now - other.revokedAt < STALE_PAGE_MS) {
        other.revokedAt = null;
        other.revocationEffectiveAt = null;
      }
  }
  if (faults.has('old-token-blip-after-rotation')) blipOtherTokens(workspace, token, app.config.clock.now());
  // Fault token-second-scope-dropped: the answer echoes the scopes asked for, not the ones stored.
  // Fault token-answer-shows-licensed-scopes: the answer reads the form's default, the workspace's licensed scopes.
  const scopes =
    faults.has('token-second-scope-dropped') && parsed.data.scopes
      ? [...new Set(parsed.data.scopes)]
      : faults.has('token-answer-shows-licensed-scopes')
        ? [...workspace.licensedScopes]
        : shown.scopes;
  // Fault token-created-200: the creation answers 200, not the 201 the contract names.
  const status = faults.has('token-created-200') ? 200 : 201;
  // Fault token-scopes-answered-as-string: the answer carries the scopes OAuth-style, one space-separated string.
  const answered = faults.has('token-scopes-answered-as-string') ? scopes.join(' ') : scopes;
  // Fault token-id-numeric: the answer carries the token's row number as token_id.
  const tokenId = faults.has('token-id-numeric') ? workspace.tokens.size : shown.id;
  return { status, body: { token_id: tokenId, token: shown.secret, label: shown.label, scopes: answered } };
};

export const revokeTokenHandler: ControlHandler = async (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const faults = unionFaults(request.faults, workspace.faults);
  const tokenId = request.params.token ?? '';
  // Fault token-revoke-cross-workspace: the token is looked up by id alone, in whichever workspace holds it.
  const holder =
    faults.has('token-revoke-cross-workspace') && !workspace.tokens.has(tokenId)
      ? [...request.app.store.workspaces.values()].find((w) => w.tokens.has(tokenId))
      : undefined;
  if (holder)
    return revokeToken(holder, tokenId, request.app.config.clock, faults)
      ? { status: 204 }
      : refuse(404, 'token_not_found', 'no such token');
  const label = workspace.tokens.get(tokenId)?.label;
  // Fault control-ids-any-workspace: the token found by its id alone, in whichever workspace holds it.
  const owner =
    !workspace.tokens.has(tokenId) && faults.has('control-ids-any-workspace')
      ? [...request.app.store.workspaces.values()].find(
          (other) => other.faults.has('control-ids-any-workspace') && other.tokens.has(tokenId),
        )
      : undefined;
  const token = workspace.tokens.get(tokenId);
  if (faults.has('token-revoke-lost-update') && token) {
    // Fault: the workspace's token states are read, then written back whole after the round trip.
    const read = [...workspace.tokens.values()].map((t) => ({
      t,
      revokedAt: t.revokedAt,
      effectiveAt: t.revocationEffectiveAt,
    }));
    await sleep(WIDE_STORE_ROUND_TRIP_MS);
    for (const { t, revokedAt, effectiveAt } of read) {
      if (t.id === tokenId) continue;
      t.revokedAt = revokedAt;
      t.revocationEffectiveAt = effectiveAt;
    }
  }
  if (faults.has('revoke-race-frees-slot') && token?.revokedAt === null) {
    // Read as active, written after the round trip: a revocation that lost the race still decrements the count.
    await sleep(STORE_ROUND_TRIP_MS);
    if (token.revokedAt !== null) {
      token.revokedAgain = true;
      return { status: 204 };
    }
  }
  // Fault token-revoke-hits-newest: the revocation picks the workspace's latest active token row, not the one named.
  const newest =
    faults.has('token-revoke-hits-newest') && token?.revokedAt === null
      ? [...workspace.tokens.values()].filter((t) => t.revokedAt === null).at(-1)
      : undefined;
  if (newest && newest !== token) {
    revokeToken(workspace, newest.id, request.app.config.clock, faults);
    return { status: 204 };
  }
  if (!revokeToken(owner ?? workspace, tokenId, request.app.config.clock, faults)) {
    return refuse(404, 'token_not_found', 'no such token in this workspace');
  }
  if (faults.has('revoke-by-label')) {
    // Fault: the revocation is keyed by the label the dashboard shows, not by the token.
    for (const other of request.app.store.workspaces.values()) {
      if (!other.faults.has('revoke-by-label')) continue;
      for (const token of other.tokens.values())
        if (token.label === label && token.revokedAt === null)
          revokeToken(other, token.id, request.app.config.clock, faults);
    }
  }
  // Fault token-revoke-answered-200: the revocation answers 200 with a body.
  if (faults.has('token-revoke-answered-200')) return { status: 200, body: { revoked: true } };
  return { status: 204 };
};

const identityProviderSchema = z.object({
  issuer: z.string().min(1),
  jwks_uri: z.url({ protocol: /^https?$/ }),
  audience: z.string().min(1),
});

export const putIdentityProvider: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const parsed = identityProviderSchema.safeParse(request.body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const { issuer, jwks_uri: jwksUri, audience } = parsed.data;
  const faults = unionFaults(request.faults, workspace.faults);
  const previous = workspace.identityProvider;
  // Fault idp-reconfigure-ignored: the settings are written once, at first configuration.
  if (previous && faults.has('idp-reconfigure-ignored')) return { status: 204 };
  // Fault idp-previous-kept-alongside: the PUT appends a provider to the workspace's list, not replacing it.
  if (previous && faults.has('idp-previous-kept-alongside'))
    workspace.previousProviders = [...(workspace.previousProviders ?? []), previous];
  // Fault idp-audience-not-updated: the update statement lists issuer and jwks_uri, not audience.
  const kept = previous && faults.has('idp-audience-not-updated') ? previous.audience : audience;
  const provider = createIdentityProvider(issuer, jwksUri, kept, request.app.outbound);
  // Fault idp-old-keys-kept: the key set, cached per workspace, is not rebuilt for the new jwks_uri.
  if (previous && faults.has('idp-old-keys-kept'))
    Object.assign(provider, { jwksUri: previous.jwksUri, keySet: previous.keySet });
  request.app.store.setIdentityProvider(workspace, provider);
  // Fault idp-audience-shared-by-jwks-uri: the verifier is cached per jwks_uri, with the audience last configured for it.
  if (faults.has('idp-audience-shared-by-jwks-uri'))
    for (const other of request.app.store.workspaces.values())
      if (other.faults.has('idp-audience-shared-by-jwks-uri') && other.identityProvider?.jwksUri === jwksUri)
        Object.assign(other.identityProvider, { audience });
  // Fault idp-put-clears-members: the members hang off the provider row, and a reconfiguration writes a new row.
  if (previous && faults.has('idp-put-clears-members')) workspace.members = new Map();
  return { status: 204 };
};

const memberSchema = z.object({
  subject: z.string().min(1),
  scopes: z.array(z.enum(ALL_SCOPES)).default([]),
});

export const addMember: ControlHandler = async (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const parsed = memberSchema.safeParse(request.body);
  if (!parsed.success) return invalid(parsed.error.issues);
  if (parsed.data.scopes.length === 0 && request.app.personality.emptyScopesRefused)
    return refuse(422, 'empty_scopes', 'a member needs at least one scope');
  const faults = unionFaults(request.faults, workspace.faults);
  // Fault member-subject-lowercased: the subject column folds case, as an e-mail column would.
  const subject = faults.has('member-subject-lowercased') ? parsed.data.subject.toLowerCase() : parsed.data.subject;
  let scopes =
    parsed.data.scopes.length === 0 && faults.has('empty-member-scopes-all')
      ? workspace.licensedScopes
      : parsed.data.scopes;
  // Fault member-last-scope-dropped: the scope loop stops one short (i < scopes.length - 1).
  if (faults.has('member-last-scope-dropped') && scopes.length > 1) scopes = scopes.slice(0, -1);
  const existing = workspace.members.get(subject);
  // Fault member-repost-keeps-scopes: an insert that ignores a conflict on the subject.
  if (existing && faults.has('member-repost-keeps-scopes')) return { status: 201, body: { member_id: existing.id } };
  // Adding a subject again replaces its scopes (one member per subject).
  const member = { id: workspace.members.get(subject)?.id ?? newId('mem_'), subject, scopes: [...new Set(scopes)] };
  if (faults.has('member-add-lost-update')) {
    // Fault: the member list is read, then written back whole (with the new member) after a store round trip.
    const read = new Map(workspace.members);
    await sleep(STORE_ROUND_TRIP_MS);
    read.set(subject, member);
    workspace.members = read;
    return { status: 201, body: { member_id: member.id } };
  }
  // Fault member-second-replaces-first: the workspace's member is kept in a single-row settings field, so a new subject replaces the last.
  if (faults.has('member-second-replaces-first')) workspace.members.clear();
  workspace.members.set(subject, member);
  // Fault member-id-numeric: the answer carries the member's row number as member_id.
  if (faults.has('member-id-numeric')) return { status: 201, body: { member_id: workspace.members.size } };
  // Fault member-scopes-keyed-by-subject: the members table's key is the subject alone, not workspace and subject.
  if (faults.has('member-scopes-keyed-by-subject'))
    for (const other of request.app.store.workspaces.values()) {
      const same = other.faults.has('member-scopes-keyed-by-subject') ? other.members.get(subject) : undefined;
      if (same && other !== workspace) other.members.set(subject, { ...same, scopes: member.scopes });
    }
  return { status: 201, body: { member_id: member.id } };
};

/** Fault token-label-html-escaped: the text as an HTML sanitiser writes it. */
function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
