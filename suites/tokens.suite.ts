/**
 * Bearer tokens: two active at most, default scopes, prefixes, and rotation without
 * downtime (Authentication > Bearer tokens; Rotation without downtime; Limits).
 */
import { RESERVED_TEST_NUMBER } from '../src/api/service.js';
import { ControlError } from '../src/errors.js';
import { assert, certifySuite, check, describeResponse, expectAuthError, is2xx } from '../src/suite/index.js';
import { sleep } from '../src/clock/wait.js';

const ROTATION_TRAFFIC_MS = 3_000;

certifySuite('tokens', () => {
  check('TOKEN-LIMIT-TWO', async (t) => {
    const workspace = await t.workspace();
    const first = await workspace.createToken('certify first');
    await workspace.createToken('certify second');
    let refusal: ControlError | undefined;
    try {
      await workspace.createToken('certify third');
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      refusal = error;
    }
    assert(refusal, 'a third active token was created: the workspace holds more than two');
    await workspace.revokeToken(first);
    const replacement = await workspace.createToken('certify replacement');
    const res = await t.api.whoami(replacement.token);
    assert(res.status === 200, `a token created after revoking one: expected whoami 200, got ${describeResponse(res)}`);
    t.detail(`third token refused with ${refusal.status}; a slot freed after revocation`);
    t.measure('third_token_status', refusal.status);
  });

  check('TOKEN-DEFAULT-SCOPES', async (t) => {
    const workspace = await t.workspace({ licensedScopes: ['voice:read', 'mailer:read'] });
    const token = await workspace.createToken('certify default scopes');
    const agents = await t.api.listAgents(token.token);
    assert(is2xx(agents.status), `agents with a default-scope token of a voice:read workspace: expected a 2xx, got ${describeResponse(agents)}`);
    const call = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
    expectAuthError(call, 'missing_scope', 'placing a call with a default-scope token of a workspace not licensed voice:write');
    const full = await t.workspace();
    const fullToken = await full.createToken('certify default scopes, all licensed');
    const placed = await t.api.placeCall(fullToken.token, { agent_id: full.agentId, to: RESERVED_TEST_NUMBER });
    assert(is2xx(placed.status), `placing a call with a default-scope token of a fully licensed workspace: expected a 2xx, got ${describeResponse(placed)}`);
  });

  check('TOKEN-STAGING-PREFIX', async (t) => {
    const capabilities = await t.capabilities();
    const expected = capabilities.environment === 'production' ? 'svc_live_' : 'svc_test_';
    const { token } = await t.workspaceWithToken();
    assert(token.token.startsWith(expected), `a ${capabilities.environment} token does not start with ${expected}`);
    t.detail(`${capabilities.environment} tokens carry ${expected}`);
  });

  check('ROTATION-BOTH-ACTIVE', async (t) => {
    const workspace = await t.workspace();
    const old = await workspace.createToken('certify old');
    const fresh = await workspace.createToken('certify new');
    for (const [name, token] of [['old', old], ['new', fresh]] as const) {
      for (const connection of [false, true]) {
        const res = await t.api.whoami(token.token, { fresh: connection });
        assert(res.status === 200, `whoami with the ${name} token (${connection ? 'fresh' : 'kept-alive'} connection): expected 200, got ${describeResponse(res)}`);
      }
    }
  });

  check('ROTATION-NO-DOWNTIME', async (t) => {
    const workspace = await t.workspace();
    const old = await workspace.createToken('certify old');
    const fresh = await workspace.createToken('certify new');
    const failures: string[] = [];
    let requests = 0;
    let revoking = true;
    const traffic = (async () => {
      const deadline = performance.now() + ROTATION_TRAFFIC_MS;
      while (revoking || performance.now() < deadline) {
        for (const fresh_connection of [false, true]) {
          const res = await t.api.whoami(fresh.token, { fresh: fresh_connection });
          requests += 1;
          if (res.status !== 200) failures.push(describeResponse(res));
        }
        if (performance.now() > deadline + 10_000) break;
      }
    })();
    await sleep(300);
    await workspace.revokeToken(old);
    revoking = false;
    await traffic;
    t.measure('requests_on_new_token', requests);
    t.measure('failures', failures.length);
    assert(failures.length === 0, `${failures.length} of ${requests} requests with the new token failed during the revocation of the old one; first: ${failures[0]}`);
    t.detail(`${requests} requests with the new token around the revocation, none failed`);
  });
});
