/**
 * Authentication errors: every way a credential can be wrong ends in 401 invalid_token
 * with the specified error shape (Errors; Authentication).
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  errorShapeProblem,
  expectErrorShape,
  expectInvalidToken,
  is4xx,
  type CheckContext,
} from '../src/suite/index.js';

/** A token that looks right and belongs to nobody. */
const unknownToken = (prefix = 'svc_test_') => `${prefix}${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;

/** The ready-made token, or a fresh one from a workspace made for the check. */
async function acceptedToken(t: CheckContext): Promise<string> {
  if (t.run.svcToken) return t.run.svcToken;
  const { token } = await t.workspaceWithToken();
  return token.token;
}

certifySuite('auth-errors', () => {
  check('AUTH-WHOAMI-ACCEPTED', async (t) => {
    const res = await t.api.whoami(await acceptedToken(t));
    assert(res.status === 200, `whoami with an accepted token: expected 200, got ${describeResponse(res)}`);
  });

  check('AUTH-MISSING-HEADER', async (t) => {
    for (const [what, send] of [
      ['whoami', () => t.api.whoami(undefined)],
      ['agents', () => t.api.listAgents(undefined)],
      ['calls', () => t.api.placeCall(undefined, { agent_id: 'agt_x', to: '+15555550123' })],
    ] as const) {
      expectInvalidToken(await send(), `${what} without Authorization`);
    }
  });

  check('AUTH-MALFORMED-HEADER', async (t) => {
    const headers = ['Bearer', 'Bearer ', 'Bearer  ', 'Bearer svc_test_', 'Bearer svc_test_ extra', 'Bearer \tsvc', 'bearer-svc_test_abc', 'Bearer svc_test_a%00b'];
    for (const value of headers) {
      const res = await t.api.raw({ path: '/v1/whoami', headers: { authorization: value } });
      expectInvalidToken(res, `Authorization ${JSON.stringify(value.replace(/svc_test_\S*/, 'svc_test_…'))}`);
    }
    t.detail(`${headers.length} malformed headers refused`);
  });

  check('AUTH-WRONG-SCHEME', async (t) => {
    const token = await acceptedToken(t);
    for (const scheme of ['Basic', 'Token', 'Digest', 'svc']) {
      const res = await t.api.raw({ path: '/v1/whoami', headers: { authorization: `${scheme} ${token}` } });
      expectInvalidToken(res, `scheme ${scheme} with a valid token`);
    }
    const bare = await t.api.raw({ path: '/v1/whoami', headers: { authorization: token } });
    expectInvalidToken(bare, 'a valid token without a scheme');
  });

  check('AUTH-UNKNOWN-TOKEN', async (t) => {
    for (const token of [unknownToken('svc_test_'), unknownToken('svc_live_'), 'svc_test_0', 'not-a-token-at-all']) {
      expectInvalidToken(await t.api.whoami(token), 'an unknown token');
    }
  });

  check('AUTH-LONG-TOKEN', async (t) => {
    expectInvalidToken(await t.api.whoami(`svc_test_${'a'.repeat(2_048 - 9)}`), 'a 2048-byte token');
    // 10 kB is past common header limits (nginx's 8 kB buffers, for one): a 431 or 400 from
    // the HTTP layer is a refusal too. Never accepted, never a server error.
    const long = await t.api.whoami(`svc_test_${'a'.repeat(10_240 - 9)}`);
    t.measure('status_10kb', long.status);
    assert(is4xx(long.status), `a 10240-byte token: expected 401 invalid_token or another 4xx (a header limit), got ${describeResponse(long)}`);
    if (long.status === 401) expectInvalidToken(long, 'a 10240-byte token');
    t.detail(`2 kB token refused with 401 invalid_token; 10 kB token refused with ${long.status}`);
  });

  check('AUTH-ERROR-SHAPE', async (t) => {
    const cases = [await t.api.whoami(undefined), await t.api.whoami(unknownToken()), await t.api.listAgents('garbage')];
    for (const res of cases) expectErrorShape(res, 'an authentication error');
  });

  check('AUTH-ERROR-JSON', async (t) => {
    const res = await t.api.whoami(unknownToken());
    const type = res.headers['content-type'] ?? '';
    assert(/^application\/([\w.+-]+\+)?json\b/i.test(type), `Content-Type of an authentication error: expected application/json, got ${JSON.stringify(type)}`);
  });

  check('AUTH-REQUEST-ID-UNIQUE', async (t) => {
    const ids = new Set<string>();
    const count = 20;
    for (let i = 0; i < count; i++) ids.add(expectErrorShape(await t.api.whoami(unknownToken()), 'an authentication error').request_id);
    assert(ids.size === count, `${count} errors carried only ${ids.size} distinct request ids`);
    t.measure('distinct_request_ids', ids.size);
  });

  check('AUTH-MALFORMED-PROPERTY', async (t) => {
    // Anything an HTTP header value may hold: visible ASCII, spaces and tabs, and obs-text bytes.
    const headerChar = fc.oneof(
      fc.integer({ min: 0x21, max: 0x7e }),
      fc.constantFrom(0x20, 0x09),
      fc.integer({ min: 0x80, max: 0xff }),
    ).map((code) => String.fromCharCode(code));
    const credential = fc.oneof(
      fc.string({ unit: headerChar, maxLength: 300 }),
      fc.string({ unit: headerChar, maxLength: 300 }).map((tail) => `svc_test_${tail}`),
      fc.string({ unit: headerChar, minLength: 2_000, maxLength: 4_000 }),
      fc.string({ unit: headerChar, maxLength: 60 }).map((tail) => `eyJ${tail}.eyJ${tail}.${tail}`),
    );
    const withScheme = fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'Bearer', 'Basic ', ''), credential).map(([scheme, value]) => `${scheme}${value}`.trim() || 'x');
    const seed = Number(process.env.FAST_CHECK_SEED ?? Date.now() % 2 ** 31);
    let runs = 0;
    const result = await fc.check(
      fc.asyncProperty(withScheme, async (header) => {
        runs += 1;
        const res = await t.api.raw({ path: '/v1/whoami', headers: { authorization: Buffer.from(header, 'latin1').toString('latin1') } });
        const code = (res.json as { error?: { code?: unknown } } | undefined)?.error?.code;
        return res.status === 401 && code === 'invalid_token' && errorShapeProblem(res) === undefined;
      }),
      { numRuns: 60, seed },
    );
    t.measure('seed', seed);
    t.measure('runs', runs);
    if (result.failed) {
      t.fail(`a generated credential did not get 401 invalid_token with the error shape (seed ${seed}, counterexample of ${String(result.counterexample?.[0]).length} chars; rerun with FAST_CHECK_SEED=${seed})`);
    }
    t.detail(`${runs} generated credentials refused with 401 invalid_token (seed ${seed})`);
  });
});

