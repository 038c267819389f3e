/**
 * Before any check runs: can the target reach the receiver and the identity provider?
 * A service on another machine that cannot (no tunnel, RECEIVER_PUBLIC_URL or
 * IDP_PUBLIC_URL unset) would fail dozens of checks for a reason that is the run's, not
 * the service's; so one probe delivery and one probe session token are tried first, and a
 * target that gets neither is refused with one line naming the setting to fix (exit 2).
 *
 * Only arrival is judged here: a delivery with a bad signature, or at another path of the
 * receiver, or a JWKS fetched and the token still refused, reached us, and the checks will say
 * what was wrong with it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ControlAdapter } from '../control/adapter.js';
import { RunAbort } from '../errors.js';
import { HttpClient } from '../http/client.js';
import { JwksServer, TestIdentityProvider } from '../idp/index.js';
import { CapturingReceiver } from '../capturing-receiver/index.js';
import { registerSecret } from '../secrets/mask.js';
import { printable } from '../text/printable.js';
import { jwksServerOptions } from '../suite/identity-provider.js';
import type { RunContext } from '../suite/run-context.js';

/** How long the probe delivery may take to arrive: a remote staging service may queue it a little. */
export const PROBE_DELIVERY_MS = 15_000;
/** Bounds each request of the probe, so a target that hangs delays the run by seconds, not minutes. */
export const PROBE_REQUEST_MS = 5_000;
const SEE = '(README: "Reaching your service")';
/** How much of a path the target sent elsewhere a note shows. */
const STRAY_PATH_CHARS = 120;

/**
 * Throws RunAbort when the target shows it cannot reach the receiver or the identity
 * provider. When the probe itself cannot be made (the control interface refuses, the API
 * hangs), that proves nothing about reach: it returns why, and the checks judge the target;
 * so it does when the probe delivery came to another path of the receiver.
 */
export async function probeReach(
  run: RunContext,
  control: ControlAdapter,
  deliveryWaitMs = PROBE_DELIVERY_MS,
): Promise<string | undefined> {
  const receiver = await listening('the receiver', 'RECEIVER_HOST and RECEIVER_PORT', () =>
    CapturingReceiver.start({
      ...(run.receiver.host ? { host: run.receiver.host } : {}),
      port: run.receiver.port,
      tls: { cert: readFileSync(run.receiver.certPath, 'utf8'), key: readFileSync(run.receiver.keyPath, 'utf8') },
      ...(run.receiver.publicUrl ? { publicUrl: run.receiver.publicUrl } : {}),
    }),
  );
  const jwks = await listening('the identity provider', 'IDP_HOST and IDP_PORT', () =>
    JwksServer.listen(jwksServerOptions(run.idp)),
  ).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  const http = new HttpClient(run.baseUrl, { ...run.network, timeoutMs: PROBE_REQUEST_MS });
  let workspaceId: string | undefined;
  try {
    workspaceId = (await control.createWorkspace()).workspaceId;
    const ws = workspaceId;
    const outcomes = await Promise.allSettled([
      probeDelivery(control, ws, receiver, deliveryWaitMs),
      probeSession(control, ws, jwks, http),
    ]);
    const problems = outcomes.flatMap((outcome) =>
      outcome.status === 'fulfilled' && outcome.value?.problem ? [outcome.value.problem] : [],
    );
    if (problems.length > 0) throw new RunAbort(`${problems.join('; and ')} ${SEE}`);
    const notes = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected'
        ? [(outcome.reason as Error).message]
        : outcome.value?.note
          ? [outcome.value.note]
          : [],
    );
    return notes.length > 0 ? notes.join('; ') : undefined;
  } catch (error) {
    if (error instanceof RunAbort) throw error;
    return (error as Error).message;
  } finally {
    if (workspaceId) await control.deleteWorkspace(workspaceId).catch(() => undefined);
    await Promise.all([receiver.close(), jwks.close(), http.close()]);
  }
}

/**
 * The events the reach probe fires: ones the public API cannot cause, so only the control
 * interface makes them. Two types of two products, so that a service which mishandles one
 * type (round 23 delivered no workspace.* event to an endpoint subscribed to it by name) is
 * still seen to reach the receiver, and its bug is judged by the checks, not read as the network.
 */
const PROBE_EVENTS = ['workspace.plan.upgraded', 'mailer.campaign.completed'] as const;

/** What a probe found: nothing wrong (undefined), a reason to stop the run, or a note for the checks. */
type ProbeFinding = { problem: string; note?: never } | { note: string; problem?: never } | undefined;

/**
 * Two events to one endpoint at the receiver; undefined when either arrived. A delivery that came to
 * another path of the receiver shows the target reaches it: the URL was changed on the way
 * (a conformance matter the checks judge), so the run goes on, with a note.
 */
async function probeDelivery(
  control: ControlAdapter,
  workspaceId: string,
  receiver: CapturingReceiver,
  waitMs: number,
): Promise<ProbeFinding> {
  let inbox = receiver.createEndpoint({ name: 'reach-probe' });
  // Subscribed to the types it fires by name: how * is read is a conformance matter the checks judge.
  const endpoint = await control.createEndpoint(workspaceId, inbox.url, [...PROBE_EVENTS]);
  // An endpoint registered by hand (a control adapter's) is delivered to at its own path.
  if (endpoint.url && endpoint.url !== inbox.url)
    inbox = receiver.createEndpoint({ name: 'reach-probe (registered by hand)', path: new URL(endpoint.url).pathname });
  inbox.setSecret(endpoint.secret);
  try {
    for (const type of PROBE_EVENTS) await control.fireEvent(workspaceId, type, {});
    const arrived = await inbox
      .waitFor((deliveries) => deliveries.length > 0, { timeoutMs: waitMs, description: 'the probe delivery' })
      .then(
        () => true,
        () => inbox.deliveries.length > 0,
      );
    if (arrived) return undefined;
    const elsewhere = receiver.strays.find((request) => request.method === 'POST');
    if (elsewhere)
      return {
        note: `the probe delivery for ${inbox.url} came to the path ${JSON.stringify(printable(elsewhere.path, STRAY_PATH_CHARS))} instead`,
      };
    return {
      problem: `the target cannot reach the receiver: no probe delivery to ${inbox.url} within ${waitMs / 1000} s; make that URL reachable from the service and set RECEIVER_PUBLIC_URL (and RECEIVER_HOST, RECEIVER_PORT)`,
    };
  } finally {
    await control.deleteEndpoint(workspaceId, endpoint.endpointId).catch(() => undefined);
  }
}

/** One session token of a provider on the run's JWKS server; undefined when the target fetched the JWKS. */
async function probeSession(
  control: ControlAdapter,
  workspaceId: string,
  jwks: JwksServer,
  http: HttpClient,
): Promise<ProbeFinding> {
  const idp = await TestIdentityProvider.start({ server: jwks });
  try {
    await control.setIdentityProvider(workspaceId, {
      issuer: idp.issuer,
      jwksUri: idp.jwksUri,
      audience: idp.audience,
    });
    const subject = `user_${randomBytes(8).toString('hex')}`;
    await control.addMember(workspaceId, subject, ['voice:read']);
    const token = await idp.mint({ sub: subject });
    registerSecret(token);
    const res = await http.request({ path: '/v1/whoami', headers: { authorization: `Bearer ${token}` } });
    // Only a refusal (401) without a fetch shows the JWKS out of reach; any other answer is the checks' to judge.
    if (res.status !== 401 || idp.jwksFetchCount > 0) return undefined;
    return {
      problem: `the target cannot reach the identity provider: a probe session token got ${res.status} and ${idp.jwksUri} was never fetched; make it reachable from the service and set IDP_PUBLIC_URL (and IDP_HOST, IDP_PORT)`,
    };
  } finally {
    await idp.close();
  }
}

/** Starts a server of the run; a failure to listen stops the run naming the settings. */
async function listening<T>(what: string, settings: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw new RunAbort(
      `${what} cannot listen (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check ${settings}`,
    );
  }
}
