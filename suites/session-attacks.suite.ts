/**
 * Session token attacks from the published catalog (jwt_tool's attack list, PortSwigger's
 * JWT write-ups, advisories), beyond the classic ones in session.suite.ts. The contract
 * accepts a JWT only when its signature verifies against a key of the configured JWKS and
 * its claims hold; "anything else: 401 invalid_token". Each forgery here makes a naive
 * validator find a key, or skip a rule, that a correct one would not: a key the token
 * brings or points to, a kid that is a file path or a query, an ECDSA signature out of
 * range, a critical extension nobody understands, a token that never expires.
 */
import {
  PSYCHIC_SIGNATURES,
  attackerCertificate,
  attackerJwks,
  nowSeconds,
  repeatClaim,
  withEmbeddedJwk,
  withHs256,
  withSignatureBytes,
} from '../src/idp/index.js';
import { certifySuite, check } from '../src/suite/index.js';
import { newAudience, newSubject, secret, sessionWorkspace } from './session/fixture.js';
import { expectAllRefused, expectControlAccepted, judgeRefusals, whoami } from './session/verdicts.js';

/** What a key file at /dev/null holds, and so the HMAC secret a path-traversing kid yields. */
const EMPTY_SECRET = new Uint8Array(0);
/** The key an injected `UNION SELECT` hands back, so the attacker knows it. */
const INJECTED_KEY = 'harness-injected-key';

certifySuite('session-attacks', () => {
  check('SESSION-EMBEDDED-JWK', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    const cert = await attackerCertificate();
    await expectAllRefused(t, [
      ['RS256 signed by the key in its jwk header', secret(await withEmbeddedJwk(claims, 'RS256'))],
      ['ES256 signed by the key in its jwk header', secret(await withEmbeddedJwk(claims, 'ES256'))],
      // A target that looks the kid up and then prefers the embedded key is fooled only so.
      [
        'RS256 signed by the key in its jwk header, under a listed kid',
        secret(await withEmbeddedJwk(claims, 'RS256', { kid: s.idp.kidFor('RS256') })),
      ],
      [
        'ES256 signed by the self-signed certificate in its x5c header',
        secret(await cert.sign(claims, { x5c: [cert.x5c] })),
      ],
    ]);
  });

  check('SESSION-JKU-INJECTION', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    const own = await attackerJwks('RS256');
    const posing = await attackerJwks('RS256', s.idp.kidFor('RS256'));
    const cert = await attackerCertificate();
    // Served by the provider's own server, beside the real JWKS: an allow-list of origins
    // or path prefixes does not save a target that follows the URL.
    const jku = s.idp.hostForeign('attacker-jwks.json', 'application/json', JSON.stringify(own.jwks));
    const jkuPosing = s.idp.hostForeign('attacker-jwks.json', 'application/json', JSON.stringify(posing.jwks));
    const x5u = s.idp.hostForeign('attacker-cert.pem', 'application/pem-certificate-chain', cert.pem);
    const answers = [
      [
        'jku naming an attacker JWKS beside the real one',
        await whoami(t, secret(await own.sign(claims, { jku: jku.url }))),
      ],
      [
        'jku naming an attacker JWKS that reuses a listed kid',
        await whoami(t, secret(await posing.sign(claims, { jku: jkuPosing.url }))),
      ],
      [
        'x5u naming an attacker certificate beside the JWKS',
        await whoami(t, secret(await cert.sign(claims, { x5u: x5u.url }))),
      ],
    ] as const;
    // Fetching an attacker's URL is a finding in itself (a request the attacker steers),
    // even when the token is then refused: recorded before the verdict.
    const jkuFetches = jku.fetchCount + jkuPosing.fetchCount;
    t.measure('jku_fetches', jkuFetches);
    t.measure('x5u_fetches', x5u.fetchCount);
    if (jkuFetches + x5u.fetchCount > 0)
      t.detail(`the target fetched the attacker's URLs (jku ${jkuFetches}, x5u ${x5u.fetchCount} times)`);
    judgeRefusals(t, answers);
  });

  check('SESSION-KID-INJECTION', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    await expectAllRefused(t, [
      [
        'kid ../../../../../../../dev/null, HS256 with an empty secret',
        secret(withHs256(claims, EMPTY_SECRET, { kid: '../../../../../../../dev/null' })),
      ],
      ['kid /dev/null, HS256 with an empty secret', secret(withHs256(claims, EMPTY_SECRET, { kid: '/dev/null' }))],
      [
        `kid x' UNION SELECT '${INJECTED_KEY}' --, HS256 with that key`,
        secret(
          withHs256(claims, new TextEncoder().encode(INJECTED_KEY), { kid: `x' UNION SELECT '${INJECTED_KEY}' -- ` }),
        ),
      ],
    ]);
  });

  check('SESSION-PSYCHIC-SIGNATURE', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint({ alg: 'ES256' }), s.idp);
    const claims = s.claims();
    const kid = s.idp.kidFor('ES256');
    await expectAllRefused(
      t,
      PSYCHIC_SIGNATURES.flatMap(([what, signature]) => [
        [
          `ES256 ${what} under the listed kid`,
          secret(withSignatureBytes({ alg: 'ES256', typ: 'JWT', kid }, claims, signature)),
        ] as const,
        [
          `ES256 ${what} without a kid`,
          secret(withSignatureBytes({ alg: 'ES256', typ: 'JWT' }, claims, signature)),
        ] as const,
      ]),
    );
  });

  check('SESSION-CRIT-UNKNOWN', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    // Correctly signed by a listed key: only the crit rule can refuse these.
    const unknown = { crit: ['x-harness-unknown'], 'x-harness-unknown': true };
    await expectAllRefused(t, [
      ['RS256 with crit naming an unknown extension', await s.mint({ alg: 'RS256', header: unknown })],
      ['ES256 with crit naming an unknown extension', await s.mint({ alg: 'ES256', header: unknown })],
    ]);
  });

  check('SESSION-DUPLICATE-CLAIMS', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    // Signed by a listed key: only how the repeated name is read can let these in. A
    // parser that keeps the first value sees a valid token; the last value is wrong.
    const repeated = async (name: string, last: unknown) =>
      secret(await s.idp.mintText(repeatClaim(claims, name, last)));
    await expectAllRefused(t, [
      ['sub of the member, then of nobody', await repeated('sub', newSubject())],
      ['exp in 1 min, then 9 min ago', await repeated('exp', nowSeconds() - 540)],
      ['aud of this workspace, then of another service', await repeated('aud', newAudience())],
      ['iss of the provider, then of another', await repeated('iss', `${s.idp.issuer}/other`)],
    ]);
  });

  check('SESSION-NO-EXP', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    await expectAllRefused(t, [
      ['no exp', await s.mint({ claims: { exp: undefined } })],
      ['no exp, issued 1 h ago', await s.mint({ issuedAtOffsetSec: -3_600, claims: { exp: undefined } })],
    ]);
  });
});
