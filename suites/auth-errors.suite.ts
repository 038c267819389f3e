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
  expectAuthFailure,
  expectInvalidToken,
  is2xx,
  is4xx,
  type CheckContext,
} from '../src/suite/index.js';
import { STATUS_ONLY } from '../src/api/service.js';
import { registerSecret } from '../src/secrets/mask.js';
import { HttpClient, type HttpResponse } from '../src/http/client.js';
import { printable } from '../src/text/printable.js';
import { pollUntil } from '../src/clock/wait.js';
import { REVOCATION_LIMIT_MS } from '../src/limits.js';

/** A token that looks right and belongs to nobody. */
const unknownToken = (prefix = 'svc_test_') =>
  `${prefix}${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;

/** A JWT of the session shape whose signature no key made: a session credential every workspace refuses. */
const UNTRUSTED_JWT = [{ alg: 'RS256', typ: 'JWT' }, { sub: 'certify-nobody', exp: 4_102_444_800 }, 'not a signature']
  .map((part) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url'))
  .join('.');

/**
 * Refusals only the control interface can set up: a revoked token once refused (within the
 * spec's minute; one still accepted then is REVOKE-PROPAGATION's to judge, and left out here),
 * and a token of a deleted workspace, presented at once (one still accepted is WS-DELETED-*'s).
 */
async function refusalsSetUpByControl(t: CheckContext): Promise<Array<[what: string, answer: HttpResponse]>> {
  const { workspace, token } = await t.workspaceWithToken();
  const kept = await workspace.createToken(`certify ${t.spec.id} kept`);
  const refusals: Array<[what: string, answer: HttpResponse]> = [];
  await workspace.revokeToken(token);
  const revoked = await pollUntil(
    () => t.api.whoami(token.token),
    (res) => is4xx(res.status),
    { timeoutMs: REVOCATION_LIMIT_MS, intervalMs: 250 },
  );
  if (revoked.ok) refusals.push(['a revoked token', revoked.last]);
  // Answered first, and over one connection of the check's own before and after: whatever
  // caches the token, per connection too, holds it at the deletion.
  const connection = t.api.ownConnection();
  try {
    await t.api.whoami(kept.token, { connection });
    if ((await t.control.deleteWorkspace(workspace.id)) !== false)
      refusals.push(["a deleted workspace's token", await t.api.whoami(kept.token, { connection })]);
  } finally {
    await connection.close();
  }
  return refusals;
}

/** Near misses (nearMissTokens) that carry all of an accepted token but a character. */
const ECHO_NEAR_MISSES = ['its last character changed', 'its last character dropped', 'one character added'];
/** A secret part shorter than this is not looked for: short strings occur by chance. */
const SHORTEST_ECHO = 16;

/** Whether `res` carries `credential`, or its part after the environment prefix, in its body or a header. */
function echoes(res: HttpResponse, credential: string): boolean {
  const answer = [res.text, ...Object.values(res.headers)].join('\n');
  const secretPart = credential.replace(/^svc_(?:test|live)_/, '');
  return answer.includes(credential) || (secretPart.length >= SHORTEST_ECHO && answer.includes(secretPart));
}

/** A request id of the caller's own, as proxies and tracing libraries send it. */
const CALLER_REQUEST_ID_HEADERS = {
  'x-request-id': 'certify-caller-request-id',
  'x-correlation-id': 'req_certifycaller',
};

/** The ready-made token, or a fresh one from a workspace made for the check. */
async function acceptedToken(t: CheckContext): Promise<string> {
  if (t.run.svcToken) return t.run.svcToken;
  const { token } = await t.workspaceWithToken();
  return token.token;
}

/**
 * Requests that carry no credential: the spec says every request carries one, and names
 * no status or code for its absence (invalid_token is for a credential "malformed, expired
 * or revoked"), so AUTH-MISSING-HEADER asks only for a refusal with the error shape and
 * AUTH-NO-CREDENTIAL-401 (should) for 401 invalid_token.
 */
async function sendWithoutCredential(t: CheckContext): Promise<Array<readonly [string, HttpResponse]>> {
  const answers: Array<readonly [string, HttpResponse]> = [
    ['whoami without Authorization', await t.api.whoami(undefined)],
    ['agents without Authorization', await t.api.listAgents(undefined)],
    [
      'calls without Authorization',
      await t.api.placeCall(undefined, { agent_id: 'agt_x', to: '+15555550123' }, STATUS_ONLY),
    ],
    // The credential is judged before the body: a service that parses first answers 400 here.
    [
      'calls without Authorization, with a malformed JSON body',
      await t.api.raw({
        method: 'POST',
        path: '/v1/voice/calls',
        headers: { 'content-type': 'application/json' },
        body: '{"agent_id": "agt_',
        idempotent: true,
      }),
    ],
  ];
  for (const value of ['Bearer', 'Bearer ', 'Bearer  ']) {
    answers.push([
      `Authorization ${JSON.stringify(value)}`,
      await t.api.raw({ path: '/v1/whoami', headers: { authorization: value } }),
    ]);
  }
  return answers;
}

/**
 * How a generated Authorization header must be refused. A bearer credential of visible
 * ASCII is "malformed": 401 invalid_token. Anything else (another scheme, none) is an
 * authentication failure with the error shape. Bytes beyond ASCII (obs-text) may be
 * refused by the HTTP layer before the service sees them: any 4xx there.
 */
export function generatedCredentialProblem(header: string, res: HttpResponse): string | undefined {
  if (is2xx(res.status)) return `was accepted (${res.status})`;
  if (!is4xx(res.status)) return `got ${res.status}, not a 4xx`;
  if (/[^\x20-\x7e\t]/.test(header)) return undefined;
  const shape = errorShapeProblem(res);
  if (shape) return `got ${res.status} without the error shape (${shape})`;
  const code = (res.json as { error: { code: string } }).error.code;
  if (/^bearer +\S/i.test(header) && (res.status !== 401 || code !== 'invalid_token'))
    return `with a bearer credential got ${res.status} ${code}, not 401 invalid_token`;
  return undefined;
}

/** A character of the base62 alphabet other than `char`. */
const otherChar = (char: string) => (char === 'A' ? 'B' : 'A');
/** Every letter with its case swapped. */
const swapCase = (text: string) =>
  text.replace(/[a-z]/gi, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));

/**
 * Near misses of an accepted token, named by what was changed (never printed as values):
 * each is another credential, which the spec's comparison must not take for the token.
 */
export function nearMissTokens(token: string): Array<[what: string, credential: string]> {
  const prefix = /^svc_(?:test|live)_/.exec(token)?.[0] ?? '';
  const tail = token.slice(prefix.length);
  const last = tail.at(-1) ?? 'x';
  const firstLetter = tail.search(/[a-z]/i);
  const misses: Array<[string, string]> = [
    ['its letters after the prefix case-swapped', prefix + swapCase(tail)],
    ['the whole token upper-cased', token.toUpperCase()],
    ['its last character changed', token.slice(0, -1) + otherChar(last)],
    ['the first character after the prefix changed', prefix + otherChar(tail[0] ?? 'x') + tail.slice(1)],
    ['its last character dropped', token.slice(0, -1)],
    ['one character added', `${token}A`],
    ['the token twice', token + token],
    ["the other environment's prefix", (prefix === 'svc_live_' ? 'svc_test_' : 'svc_live_') + tail],
    ['a space inside', `${token.slice(0, 12)} ${token.slice(12)}`],
    ['its last character percent-encoded', `${token.slice(0, -1)}%${last.charCodeAt(0).toString(16).toUpperCase()}`],
    ['base64-encoded', Buffer.from(token).toString('base64')],
  ];
  if (firstLetter >= 0) {
    const char = tail[firstLetter]!;
    misses.push([
      'one letter after the prefix case-swapped',
      prefix + tail.slice(0, firstLetter) + swapCase(char) + tail.slice(firstLetter + 1),
    ]);
  }
  return misses.filter(([, credential]) => credential !== token);
}

certifySuite('auth-errors', () => {
  check('AUTH-WHOAMI-ACCEPTED', async (t) => {
    const res = await t.api.whoami(await acceptedToken(t));
    assert(res.status === 200, `whoami with an accepted token: expected 200, got ${describeResponse(res)}`, res);
  });

  check('AUTH-MISSING-HEADER', async (t) => {
    const seen = new Set<string>();
    for (const [what, res] of await sendWithoutCredential(t)) {
      const error = expectAuthFailure(res, what);
      seen.add(`${res.status} ${error.code}`);
    }
    t.measure('answers', [...seen].join(', '));
    t.detail(`refused with ${[...seen].join(', ')} and the error shape`);
  });

  check('AUTH-NO-CREDENTIAL-401', async (t) => {
    const answers = await sendWithoutCredential(t);
    for (const [what, res] of answers) expectInvalidToken(res, what);
    t.detail(`${answers.length} requests without a credential answered 401 invalid_token`);
  });

  check('AUTH-MALFORMED-HEADER', async (t) => {
    const headers = [
      'Bearer svc_test_',
      'Bearer svc_test_ extra',
      'Bearer \tsvc',
      'Bearer svc_test_a%00b',
      'Bearer ###',
      'Bearer svc_test_\u00e9t\u00e9',
    ];
    for (const value of headers) {
      const res = await t.api.raw({ path: '/v1/whoami', headers: { authorization: value } });
      expectInvalidToken(res, `Authorization ${JSON.stringify(value.replace(/svc_test_\S*/, 'svc_test_…'))}`);
    }
    t.detail(`${headers.length} malformed bearer credentials refused with 401 invalid_token`);
  });

  check('AUTH-WRONG-SCHEME', async (t) => {
    const token = await acceptedToken(t);
    // NotBearer: a scheme that only ends in the word (a pattern not anchored at the header's start).
    for (const scheme of ['Basic', 'Token', 'Digest', 'svc', 'NotBearer']) {
      const res = await t.api.raw({ path: '/v1/whoami', headers: { authorization: `${scheme} ${token}` } });
      expectInvalidToken(res, `scheme ${scheme} with a valid token`);
    }
    const bare = await t.api.raw({ path: '/v1/whoami', headers: { authorization: token } });
    expectInvalidToken(bare, 'a valid token without a scheme');
    const glued = await t.api.raw({ path: '/v1/whoami', headers: { authorization: `bearer-${token}` } });
    expectInvalidToken(glued, 'a valid token glued to the scheme name');
    // "Bearer <token>" is the whole header: a word after the token makes the credential malformed.
    const followed = await t.api.raw({ path: '/v1/whoami', headers: { authorization: `Bearer ${token} ${token}` } });
    expectInvalidToken(followed, 'a valid token followed by another word');
  });

  check('AUTH-UNKNOWN-TOKEN', async (t) => {
    for (const token of [unknownToken('svc_test_'), unknownToken('svc_live_'), 'svc_test_0', 'not-a-token-at-all']) {
      expectInvalidToken(await t.api.whoami(token), 'an unknown token');
    }
  });

  check('AUTH-NEAR-MISS-TOKEN', async (t) => {
    const token = await acceptedToken(t);
    const own = await t.api.whoami(token);
    assert(
      own.status === 200,
      `whoami with the accepted token itself: expected 200 before its near misses are judged, got ${describeResponse(own)}`,
      own,
    );
    const misses = nearMissTokens(token);
    for (const [, credential] of misses) registerSecret(credential);
    const accepted: string[] = [];
    for (const [what, credential] of misses) {
      const res = await t.api.whoami(credential);
      if (res.status === 200) accepted.push(what);
      else expectInvalidToken(res, `the accepted token with ${what}`);
    }
    assert(
      accepted.length === 0,
      `near misses of an accepted token were accepted (whoami 200): the token with ${accepted.join('; with ')}`,
    );
    t.measure(
      'near_misses',
      misses.map(([what]) => what),
    );
    t.detail(`${misses.length} near misses of an accepted token refused with 401 invalid_token`);
  });

  // "Tokens are secrets": an answer refusing a credential does not hand it back, where proxies,
  // logs and error trackers keep responses (round 17 echoed it in error.message). Near misses of
  // an accepted token carry nearly all of it.
  check('AUTH-ERROR-NO-TOKEN-ECHO', async (t) => {
    const token = await acceptedToken(t);
    const presented: Array<[what: string, credential: string]> = [
      ['a well-formed unknown token', unknownToken()],
      ...nearMissTokens(token).filter(([what]) => ECHO_NEAR_MISSES.includes(what)),
    ];
    for (const [, credential] of presented) registerSecret(credential);
    const echoed: string[] = [];
    for (const [what, credential] of presented) {
      const res = await t.api.whoami(credential);
      if (echoes(res, credential)) echoed.push(`${what} (answered ${res.status})`);
    }
    t.measure('presented', presented.length);
    // Named, never shown: the answer that carries a token is not printed.
    assert(
      echoed.length === 0,
      `an answer refusing a bearer token handed it back in its body or headers: ${echoed.join('; ')}; tokens are secrets`,
    );
    t.detail(`${presented.length} refused tokens, none handed back in the answer's body or headers`);
  });

  check('AUTH-CONTROL-NEAR-MISS', async (t) => {
    const { controlUrl, controlToken } = t.run;
    if (!controlUrl || !controlToken)
      return t.skip(
        'needs the control interface over HTTP (SVC_CONTROL_URL and SVC_CONTROL_TOKEN); a control adapter holds its own credentials',
      );
    const last = controlToken.at(-1) ?? 'x';
    const credentials: Array<[what: string, header: string | undefined]> = [
      ['no Authorization', undefined],
      ['the token under Basic', `Basic ${controlToken}`],
      ['its last character changed', `Bearer ${controlToken.slice(0, -1)}${otherChar(last)}`],
      ['its last character dropped', `Bearer ${controlToken.slice(0, -1)}`],
      ['one character added', `Bearer ${controlToken}A`],
      ['its letters case-swapped', `Bearer ${swapCase(controlToken)}`],
    ];
    for (const [, header] of credentials) registerSecret(header?.replace(/^\w+ /, ''));
    const control = new HttpClient(controlUrl, { ...t.run.network, paced: false });
    try {
      const own = await control.request({
        path: '/capabilities',
        headers: { authorization: `Bearer ${controlToken}` },
      });
      assert(
        own.status === 200,
        `GET /capabilities with the control token itself: expected 200, got ${describeResponse(own)}`,
      );
      const wrong: string[] = [];
      for (const [what, header] of credentials) {
        const res = await control.request({
          path: '/capabilities',
          headers: header === undefined ? {} : { authorization: header },
        });
        if (res.status !== 401) wrong.push(`${what}: ${describeResponse(res)}`);
      }
      assert(
        wrong.length === 0,
        `the control interface did not answer 401 to ${wrong.length} of ${credentials.length} requests without its token; ${wrong.join('; ')}`,
      );
      // Every route, not only the one probed: a route mounted before the authentication answers without it.
      const ws = 'ws_certifynoauth';
      const routes: ReadonlyArray<readonly [method: string, path: string]> = [
        ['POST', '/workspaces'],
        ['DELETE', `/workspaces/${ws}`],
        ['POST', `/workspaces/${ws}/suspend`],
        ['POST', `/workspaces/${ws}/reinstate`],
        ['POST', `/workspaces/${ws}/tokens`],
        ['DELETE', `/workspaces/${ws}/tokens/tok_certifynoauth`],
        ['PUT', `/workspaces/${ws}/identity-provider`],
        ['POST', `/workspaces/${ws}/members`],
        ['POST', `/workspaces/${ws}/webhook-endpoints`],
        ['GET', `/workspaces/${ws}/webhook-endpoints/we_certifynoauth`],
        ['POST', `/workspaces/${ws}/webhook-endpoints/we_certifynoauth/enable`],
        ['POST', `/workspaces/${ws}/events`],
        ['POST', `/workspaces/${ws}/deliveries/replay`],
        ['POST', `/workspaces/${ws}/calls/call_certifynoauth/progress`],
      ];
      const open: string[] = [];
      for (const [method, path] of routes) {
        const res = await control.request({
          method,
          path,
          ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
        });
        if (res.status !== 401) open.push(`${method} ${path}: ${describeResponse(res)}`);
      }
      assert(
        open.length === 0,
        `${open.length} of ${routes.length} control routes did not answer 401 without Authorization; ${open.join('; ')}`,
      );
      t.detail(
        `${credentials.length} requests without the control token (none, another scheme, near misses) answered 401, and every one of ${routes.length} other control routes without Authorization`,
      );
    } finally {
      await control.close();
    }
  });

  check('AUTH-LONG-TOKEN', async (t) => {
    expectInvalidToken(await t.api.whoami(`svc_test_${'a'.repeat(2_048 - 9)}`), 'a 2048-byte token');
    // 10 kB is past common header limits (nginx's 8 kB buffers, for one): a 431 or 400 from
    // the HTTP layer is a refusal too. Never accepted, never a server error.
    const long = await t.api.whoami(`svc_test_${'a'.repeat(10_240 - 9)}`);
    t.measure('status_10kb', long.status);
    assert(
      is4xx(long.status),
      `a 10240-byte token: expected 401 invalid_token or another 4xx (a header limit), got ${describeResponse(long)}`,
      long,
    );
    if (long.status === 401) expectInvalidToken(long, 'a 10240-byte token');
    t.detail(`2 kB token refused with 401 invalid_token; 10 kB token refused with ${long.status}`);
  });

  check('AUTH-ERROR-SHAPE', async (t) => {
    const cases = [
      await t.api.whoami(undefined),
      await t.api.whoami(unknownToken()),
      await t.api.listAgents('garbage'),
    ];
    for (const res of cases) expectErrorShape(res, 'an authentication error');
  });

  check('AUTH-ERROR-MESSAGE', async (t) => {
    const token = await acceptedToken(t);
    const whoami = (authorization: string | string[] | undefined) =>
      t.api.raw({ path: '/v1/whoami', headers: authorization === undefined ? {} : { authorization } });
    const refusals: Array<[what: string, answer: HttpResponse]> = [
      ['no Authorization', await whoami(undefined)],
      ['two Authorization headers', await whoami([`Bearer ${token}`, `Bearer ${unknownToken()}`])],
      ['the token under Basic', await whoami(`Basic ${token}`)],
      ['a 5000-character bearer token', await whoami(`Bearer svc_test_${'a'.repeat(5_000 - 9)}`)],
      ['a credential of no known shape', await whoami('Bearer not-a-token')],
      ['a well-formed unknown token', await whoami(`Bearer ${unknownToken()}`)],
      ['a JWT signed by nobody the workspace trusts', await whoami(`Bearer ${UNTRUSTED_JWT}`)],
      ...(t.hasControl ? await refusalsSetUpByControl(t) : []),
    ];
    const unreadable: string[] = [];
    let judged = 0;
    for (const [what, answer] of refusals) {
      // An answer without the error shape (a proxy's 431, say) is AUTH-ERROR-SHAPE's and AUTH-LONG-TOKEN's to judge.
      if (errorShapeProblem(answer) !== undefined) continue;
      judged += 1;
      const { message } = (answer.json as { error: { message: string } }).error;
      if (!/\p{L}/u.test(message)) unreadable.push(`${what}: ${JSON.stringify(printable(message, 80))}`);
    }
    t.measure('refusals_judged', judged);
    if (judged === 0)
      t.skip(
        `none of ${refusals.length} refused credentials was answered with the error shape (AUTH-ERROR-SHAPE judges that)`,
      );
    assert(
      unreadable.length === 0,
      `error.message is "human-readable" (Errors), but had no letter in it for ${unreadable.join('; ')}`,
    );
    t.detail(`${judged} of ${refusals.length} refusals carried the error shape, each with a message of words`);
  });

  check('AUTH-ERROR-JSON', async (t) => {
    const res = await t.api.whoami(unknownToken());
    const type = res.headers['content-type'] ?? '';
    assert(
      /^application\/([\w.+-]+\+)?json\b/i.test(type),
      `Content-Type of an authentication error: expected application/json, got ${JSON.stringify(type)}`,
    );
  });

  // Half the requests carry a request id of the caller's own, the same each time, in the headers
  // proxies and tracing libraries send: the error's request_id is still the service's req_<id>,
  // its own for each error (round 18 answered the caller's X-Request-Id).
  check('AUTH-REQUEST-ID-UNIQUE', async (t) => {
    const ids = new Set<string>();
    const count = 20;
    for (let i = 0; i < count; i++) {
      const headers = i % 2 === 1 ? CALLER_REQUEST_ID_HEADERS : {};
      const res = await t.api.raw({
        path: '/v1/whoami',
        headers: { authorization: `Bearer ${unknownToken()}`, ...headers },
      });
      const what =
        i % 2 === 1
          ? 'an authentication error of a request carrying X-Request-Id and X-Correlation-Id'
          : 'an authentication error';
      ids.add(expectErrorShape(res, what).request_id);
    }
    assert(
      ids.size === count,
      `${count} errors, half of them of requests carrying the same X-Request-Id, carried only ${ids.size} distinct request ids`,
    );
    t.measure('distinct_request_ids', ids.size);
  });

  check('AUTH-MALFORMED-PROPERTY', async (t) => {
    // Anything an HTTP header value may hold: visible ASCII, spaces and tabs, and obs-text bytes.
    const headerChar = fc
      .oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.constantFrom(0x20, 0x09), fc.integer({ min: 0x80, max: 0xff }))
      .map((code) => String.fromCharCode(code));
    const credential = fc.oneof(
      fc.string({ unit: headerChar, maxLength: 300 }),
      fc.string({ unit: headerChar, maxLength: 300 }).map((tail) => `svc_test_${tail}`),
      fc.string({ unit: headerChar, minLength: 2_000, maxLength: 4_000 }),
      fc.string({ unit: headerChar, maxLength: 60 }).map((tail) => `eyJ${tail}.eyJ${tail}.${tail}`),
    );
    const withScheme = fc
      .tuple(fc.constantFrom('Bearer ', 'bearer ', 'Bearer ', 'Bearer', 'Basic ', ''), credential)
      .map(([scheme, value]) => `${scheme}${value}`.trim() || 'x');
    const seed = t.run.seed;
    const statuses: Record<string, number> = {};
    let runs = 0;
    let offending: string | undefined;
    let offendingAnswer: HttpResponse | undefined;
    const result = await fc.check(
      fc.asyncProperty(withScheme, async (header) => {
        runs += 1;
        const res = await t.api.raw({ path: '/v1/whoami', headers: { authorization: header } });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const problem = generatedCredentialProblem(header, res);
        if (problem) [offending, offendingAnswer] = [`a ${header.length}-character header ${problem}`, res];
        return problem === undefined;
      }),
      // A plain bearer credential among the generated ones, whatever the seed: most generated
      // headers carry obs-text, which only a 4xx is asked of, and a seed could miss the rest.
      {
        numRuns: 60,
        seed,
        examples: [['Bearer svc_test_NotARealToken0000'], ['bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.']],
      },
    );
    t.measure('seed', seed);
    t.measure('runs', runs);
    t.measure('statuses', statuses);
    if (result.failed)
      t.fail(
        `${offending ?? 'a generated credential was not refused as the rule says'} (seed ${seed}; rerun with FAST_CHECK_SEED=${seed})`,
        offendingAnswer,
      );
    t.detail(`${runs} generated credentials refused with 401 invalid_token (seed ${seed})`);
  });
});
