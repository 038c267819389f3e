import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';
import { deliver, envelope, insecureAgent, SECRET } from './helpers.js';

let receiver: CapturingReceiver;
let agent: Agent;

beforeAll(async () => {
  // A short request time-out so the hang test is quick.
  receiver = await CapturingReceiver.start({ requestTimeoutMs: 600 });
  agent = insecureAgent();
});

afterAll(async () => {
  await agent.close();
  await receiver.close();
});

const event = (id: string, type = 'voice.call.queued') => JSON.stringify(envelope({ id, type }));

function endpoint() {
  return receiver.createEndpoint().setSecret(SECRET);
}

describe('capturing receiver: programmed answers', () => {
  it.each([200, 201, 202, 204])('answers a programmed %i', async (status) => {
    const ep = endpoint().respond({ status });
    expect((await deliver(agent, ep, event('evt_1'))).status).toBe(status);
  });

  it.each([400, 404, 410, 429, 500, 502, 503])('answers a programmed %i', async (status) => {
    const ep = endpoint().respond({ status });
    expect((await deliver(agent, ep, event('evt_1'))).status).toBe(status);
  });

  it('answers a 3xx with a Location pointing at a stray path of the receiver', async () => {
    const ep = endpoint().respond({ status: 301 });
    const result = await deliver(agent, ep, event('evt_1'));
    expect(result.status).toBe(301);
    expect(result.headers?.['location']).toBe(`${ep.url}/redirected`);
  });

  it('keeps a Location header given with a 3xx', async () => {
    const ep = endpoint().respond({ status: 307, headers: { Location: 'https://127.0.0.1:1/elsewhere' } });
    expect((await deliver(agent, ep, event('evt_1'))).headers?.['location']).toBe('https://127.0.0.1:1/elsewhere');
  });

  it('answers after a programmed delay and records how long it took', async () => {
    const ep = endpoint().respond({ status: 200, delayMs: 250 });
    const result = await deliver(agent, ep, event('evt_1'));
    expect(result.status).toBe(200);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(240);
    expect(ep.deliveries[0]!.answeredAfterMs).toBeGreaterThanOrEqual(249);
  });

  it('records a delivery at arrival, before a delayed answer goes out', async () => {
    const ep = endpoint().respond({ status: 204, delayMs: 300 });
    const pending = deliver(agent, ep, event('evt_1'));
    const [arrived] = await ep.waitFor((ds) => ds.length === 1, { timeoutMs: 2_000 });
    expect(arrived!.answer).toBe('pending');
    await pending;
    expect(ep.deliveries[0]!.answer).toBe('sent');
  });

  it('sends the head of an answer at once and its body later, when programmed to', async () => {
    const ep = endpoint().respond({ status: 200, body: 'ok', bodyDelayMs: 300 });
    const { request } = await import('undici');
    const started = performance.now();
    const response = await request(ep.url, { method: 'POST', body: event('evt_1'), dispatcher: agent });
    const headAfterMs = performance.now() - started;
    expect(response.statusCode).toBe(200);
    expect(ep.deliveries[0]!.answer).toBe('pending');
    expect(await response.body.text()).toBe('ok');
    expect(performance.now() - started - headAfterMs).toBeGreaterThanOrEqual(200);
    expect(ep.deliveries[0]).toMatchObject({ answer: 'sent', answeredStatus: 200 });
    expect(ep.deliveries[0]!.answeredAfterMs).toBeGreaterThanOrEqual(299);
  });

  it('records a hang-up while the body is held back as the service closing', async () => {
    const ep = endpoint().respond({ status: 200, body: 'ok', bodyDelayMs: 400 });
    const { request } = await import('undici');
    const response = await request(ep.url, { method: 'POST', body: event('evt_1'), dispatcher: agent });
    expect(response.statusCode).toBe(200);
    response.body.destroy();
    await ep.waitFor((ds) => ds[0]!.answer !== 'pending', { timeoutMs: 2_000 });
    expect(ep.deliveries[0]!.answer).toBe('client-closed');
  });

  it('resets the connection when programmed to', async () => {
    const ep = endpoint().respond({ reset: true });
    const result = await deliver(agent, ep, event('evt_1'));
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(ep.deliveries[0]).toMatchObject({ answer: 'reset', answeredStatus: null });
  });

  it('resets the connection after a delay when programmed to', async () => {
    const ep = endpoint().respond({ reset: true, delayMs: 150 });
    const result = await deliver(agent, ep, event('evt_1'));
    expect(result.error).toBeDefined();
    expect(result.elapsedMs).toBeGreaterThanOrEqual(140);
  });

  it('bounds a hang with its own request time-out', async () => {
    const ep = endpoint().respond({ hang: true });
    const result = await deliver(agent, ep, event('evt_1'));
    expect(result.error).toBeDefined();
    expect(result.elapsedMs).toBeGreaterThanOrEqual(550);
    expect(ep.deliveries[0]).toMatchObject({ answer: 'timed-out', answeredStatus: null });
  });

  it('records when the service hangs up first during a delay', async () => {
    const ep = endpoint().respond({ status: 204, delayMs: 500 });
    const controller = new AbortController();
    const { request } = await import('undici');
    const sent = request(ep.url, {
      method: 'POST',
      body: event('evt_1'),
      dispatcher: agent,
      signal: controller.signal,
    }).catch(() => 'aborted');
    await ep.waitFor((ds) => ds.length === 1, { timeoutMs: 2_000 });
    controller.abort();
    expect(await sent).toBe('aborted');
    await ep.waitFor((ds) => ds[0]!.answer !== 'pending', { timeoutMs: 2_000 });
    expect(ep.deliveries[0]!.answer).toBe('client-closed');
  });

  it('fails only the first N attempts of each event id', async () => {
    const ep = endpoint().failFirst(2, { status: 503 });
    const statuses = [];
    for (const id of ['evt_a', 'evt_a', 'evt_b', 'evt_a', 'evt_b', 'evt_b'])
      statuses.push((await deliver(agent, ep, event(id))).status);
    expect(statuses).toEqual([503, 503, 503, 204, 503, 204]);
  });

  it('fails the first N attempts of one event id only', async () => {
    const ep = endpoint().failFirst(1, { status: 500 }, { eventId: 'evt_x' });
    const statuses = [];
    for (const id of ['evt_y', 'evt_x', 'evt_x']) statuses.push((await deliver(agent, ep, event(id))).status);
    expect(statuses).toEqual([204, 500, 204]);
  });

  it('matches on event type', async () => {
    const ep = endpoint().respond({ eventType: 'mailer.email.sent', status: 500 });
    expect((await deliver(agent, ep, event('evt_1', 'mailer.email.sent'))).status).toBe(500);
    expect((await deliver(agent, ep, event('evt_2', 'voice.call.queued'))).status).toBe(204);
  });

  it('fails everything with failAll', async () => {
    const ep = endpoint().failAll({ status: 502 });
    expect((await deliver(agent, ep, event('evt_1'))).status).toBe(502);
    expect((await deliver(agent, ep, event('evt_1'))).status).toBe(502);
  });

  it('a programmed answer overrides the 401 of a bad signature', async () => {
    const ep = endpoint().respond({ status: 200 });
    expect((await deliver(agent, ep, event('evt_1'), { secret: 'whsec_wrong' })).status).toBe(200);
  });

  it('the first matching rule wins', async () => {
    const ep = endpoint().respond({ eventId: 'evt_1', status: 418 }).failAll({ status: 500 });
    expect((await deliver(agent, ep, event('evt_1'))).status).toBe(418);
    expect((await deliver(agent, ep, event('evt_2'))).status).toBe(500);
  });

  it('reset() brings back the default answers', async () => {
    const ep = endpoint().failAll({ status: 500 });
    ep.reset();
    expect((await deliver(agent, ep, event('evt_1'))).status).toBe(204);
  });

  it('refuses a rule it cannot carry out', () => {
    const ep = endpoint();
    expect(() => ep.respond({ status: 99 })).toThrow(RangeError);
    expect(() => ep.respond({ status: 200, delayMs: -1 })).toThrow(RangeError);
    expect(() => ep.respond({ status: 200, bodyDelayMs: Number.NaN })).toThrow(RangeError);
    expect(() => ep.failFirst(0)).toThrow(RangeError);
  });
});
