import { connect as netConnect } from 'node:net';
import { Readable } from 'node:stream';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Agent } from 'undici';
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';
import { deliver, envelope, insecureAgent, SECRET } from './helpers.js';

let receiver: CapturingReceiver;
let agent: Agent;

beforeAll(async () => {
  receiver = await CapturingReceiver.start({ maxBodyBytes: 4_096 });
  agent = insecureAgent();
});

afterAll(async () => {
  await agent.close();
  await receiver.close();
});

function signedEndpoint() {
  return receiver.createEndpoint().setSecret(SECRET);
}

describe('capturing receiver: what it records', () => {
  it('keeps the raw body bytes exactly as sent, odd whitespace and escapes included', async () => {
    const ep = signedEndpoint();
    const raw = Buffer.from(
      '{ "id" :"evt_ws1",\n\t"type":"voice.call.queued" ,\r\n "data":{ "note":"Caf\\u00e9 – ☎" }   }\n\n',
      'utf8',
    );
    const result = await deliver(agent, ep, raw);
    expect(result.status).toBe(204);
    expect(ep.deliveries[0]!.rawBody.equals(raw)).toBe(true);
    expect(ep.deliveries[0]!.verdicts.signature).toEqual({ ok: true });
  });

  it('records method, path, query, lower-case headers and both clocks', async () => {
    const ep = signedEndpoint();
    const before = Date.now();
    await deliver(agent, `${ep.url}?attempt=1`, JSON.stringify(envelope()), { headers: { 'X-Custom-Header': 'Yes' } });
    const d = ep.deliveries[0]!;
    expect(d).toMatchObject({ method: 'POST', path: ep.path, query: 'attempt=1', endpoint: ep.name, attempt: 1 });
    expect(d.headers['x-custom-header']).toBe('Yes');
    expect(d.receivedAtMs).toBeGreaterThanOrEqual(before);
    expect(d.receivedAtMono).toBeGreaterThan(0);
  });

  it('answers 204 to a valid signature', async () => {
    const ep = signedEndpoint();
    expect((await deliver(agent, ep, JSON.stringify(envelope()))).status).toBe(204);
    expect(ep.deliveries[0]).toMatchObject({ answer: 'sent', answeredStatus: 204 });
  });

  it('answers 401 to a signature made with another secret', async () => {
    const ep = signedEndpoint();
    const result = await deliver(agent, ep, JSON.stringify(envelope()), { secret: 'whsec_someone_else' });
    expect(result.status).toBe(401);
    expect(ep.deliveries[0]!.verdicts.signature).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('answers 401 to a delivery without a signature', async () => {
    const ep = signedEndpoint();
    const result = await deliver(agent, ep, JSON.stringify(envelope()), { signature: '' });
    expect(result.status).toBe(401);
    expect(ep.deliveries[0]!.verdicts.signature).toEqual({ ok: false, reason: 'missing' });
  });

  it('answers 204 and reports no-secret before a secret is set', async () => {
    const ep = receiver.createEndpoint();
    expect((await deliver(agent, ep, JSON.stringify(envelope()), { secret: 'anything' })).status).toBe(204);
    expect(ep.deliveries[0]!.verdicts.signature).toBe('no-secret');
  });

  it('measures the timestamp skew against its own clock', async () => {
    const ep = signedEndpoint();
    await deliver(agent, ep, JSON.stringify(envelope()), { timestamp: String(Math.floor(Date.now() / 1000) - 400) });
    const timestamp = ep.deliveries[0]!.verdicts.timestamp;
    expect(timestamp).toMatchObject({ ok: false, reason: 'too-old' });
    expect(timestamp.skewSeconds).toBeLessThan(-399);
  });

  it('still answers 204 to a stale timestamp by default, leaving the verdict to the suite', async () => {
    const ep = signedEndpoint();
    expect((await deliver(agent, ep, '{}', { timestamp: '1000' })).status).toBe(204);
  });

  it('answers 401 to a stale timestamp when asked to reject them', async () => {
    const ep = receiver.createEndpoint({ rejectStaleTimestamp: true }).setSecret(SECRET);
    expect((await deliver(agent, ep, '{}', { timestamp: '1000' })).status).toBe(401);
  });

  it('validates the envelope and extracts the event id and type', async () => {
    const ep = signedEndpoint();
    await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_abc', type: 'mailer.email.sent' })));
    expect(ep.deliveries[0]!.verdicts).toMatchObject({
      envelope: { valid: true, errors: [] },
      eventId: 'evt_abc',
      eventType: 'mailer.email.sent',
      json: { id: 'evt_abc' },
    });
  });

  it('reports a body that is not JSON as an invalid envelope and still answers', async () => {
    const ep = signedEndpoint();
    expect((await deliver(agent, ep, 'not json {')).status).toBe(204);
    expect(ep.deliveries[0]!.verdicts.envelope.valid).toBe(false);
    expect(ep.deliveries[0]!.verdicts.envelope.errors[0]).toMatch(/^body is not JSON/);
  });

  it('marks a second arrival of the same event id as a duplicate', async () => {
    const ep = signedEndpoint();
    await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_dup' })));
    await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_other' })));
    await deliver(agent, ep, JSON.stringify(envelope({ id: 'evt_dup' })));
    expect(ep.deliveries.map((d) => [d.verdicts.eventId, d.attempt, d.verdicts.duplicate])).toEqual([
      ['evt_dup', 1, false],
      ['evt_other', 1, false],
      ['evt_dup', 2, true],
    ]);
    expect(ep.stats()).toMatchObject({ total: 3, duplicates: 1, uniqueEventIds: 2 });
  });

  it('does not count an id seen at another endpoint as a duplicate', async () => {
    const first = signedEndpoint();
    const second = signedEndpoint();
    await deliver(agent, first, JSON.stringify(envelope({ id: 'evt_shared' })));
    await deliver(agent, second, JSON.stringify(envelope({ id: 'evt_shared' })));
    expect(second.deliveries[0]!.verdicts.duplicate).toBe(false);
  });

  it('answers 413 to a body over the cap without keeping it, and stays usable', async () => {
    const ep = signedEndpoint();
    const result = await deliver(agent, ep, Buffer.alloc(64 * 1024, 0x20));
    expect(result.status).toBe(413);
    expect(ep.deliveries).toHaveLength(0);
    expect(ep.stats().oversized).toBe(1);
    expect((await deliver(agent, ep, '{}')).status).toBe(204);
  });

  it('answers 413 to a streamed body that grows past the cap, without a declared length', async () => {
    const ep = signedEndpoint();
    // A Readable has no length for undici to declare, so the body goes out chunked.
    const body = Readable.from(Array.from({ length: 8 }, () => Buffer.alloc(1_024, 0x20)));
    const res = await request(ep.url, { method: 'POST', body, dispatcher: agent });
    await res.body.text();
    expect(res.statusCode).toBe(413);
    expect(ep.deliveries).toHaveLength(0);
  });

  it('answers 404 to an unknown path and records it as a stray', async () => {
    const strays = receiver.stats().strays;
    const result = await deliver(agent, `${receiver.publicUrl}/hooks/nobody-home`, '{}');
    expect(result.status).toBe(404);
    expect(receiver.stats().strays).toBe(strays + 1);
    expect(receiver.strays.at(-1)).toMatchObject({ method: 'POST', path: '/hooks/nobody-home' });
  });

  it('keeps only the newest deliveries past the per-endpoint cap and counts the dropped ones', async () => {
    const small = await CapturingReceiver.start({ maxDeliveriesPerEndpoint: 2 });
    try {
      const ep = small.createEndpoint();
      for (const id of ['evt_a', 'evt_b', 'evt_c']) await deliver(agent, ep, JSON.stringify(envelope({ id })));
      expect(ep.deliveries.map((d) => d.verdicts.eventId)).toEqual(['evt_b', 'evt_c']);
      expect(ep.stats().dropped).toBe(1);
    } finally {
      await small.close();
    }
  });

  it('keeps only the newest deliveries past the per-endpoint byte budget', async () => {
    const small = await CapturingReceiver.start({ maxStoredBytesPerEndpoint: 2_500 });
    try {
      const ep = small.createEndpoint();
      const padded = (id: string) => JSON.stringify(envelope({ id, data: { pad: 'x'.repeat(1_000) } }));
      for (const id of ['evt_a', 'evt_b', 'evt_c']) await deliver(agent, ep, padded(id));
      expect(ep.deliveries.map((d) => d.verdicts.eventId)).toEqual(['evt_b', 'evt_c']);
      expect(ep.stats().dropped).toBe(1);
    } finally {
      await small.close();
    }
  });

  it('serves its stats as JSON on GET /_stats', async () => {
    const ep = signedEndpoint();
    await deliver(agent, ep, '{"id":"evt_s"}');
    const res = await request(`${receiver.publicUrl}/_stats`, { dispatcher: agent });
    const stats = (await res.body.json()) as {
      total: number;
      endpoints: Record<string, { total: number; bytes: number }>;
    };
    expect(res.statusCode).toBe(200);
    expect(stats.total).toBeGreaterThan(0);
    expect(stats.endpoints[ep.name]).toMatchObject({ total: 1, bytes: 14 });
  });

  it('serves many endpoints on one port, each with its own secret', async () => {
    const a = receiver.createEndpoint().setSecret('whsec_a');
    const b = receiver.createEndpoint().setSecret('whsec_b');
    expect(new URL(a.url).port).toBe(new URL(b.url).port);
    expect((await deliver(agent, a, '{}', { secret: 'whsec_a' })).status).toBe(204);
    expect((await deliver(agent, b, '{}', { secret: 'whsec_a' })).status).toBe(401);
  });

  it('never shows the secret when an endpoint is logged or serialised', async () => {
    const { inspect } = await import('node:util');
    const ep = receiver.createEndpoint().setSecret('whsec_do_not_print_me');
    expect(inspect(ep, { depth: 5, showHidden: true })).not.toContain('do_not_print_me');
    expect(JSON.stringify(ep)).not.toContain('do_not_print_me');
  });

  it('survives garbage inside TLS and plain text outside it, and keeps serving', async () => {
    const garbage = new Promise<void>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: receiver.port, rejectUnauthorized: false }, () => {
        socket.end('\x00\x01 NOT HTTP AT ALL\r\n\r\n\r\n');
      });
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
      socket.resume();
    });
    await garbage;
    const plainText = new Promise<void>((resolve) => {
      const socket = netConnect(receiver.port, '127.0.0.1', () => socket.end('GET / HTTP/1.1\r\n\r\n'));
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
      socket.resume();
    });
    await plainText;
    expect((await deliver(agent, signedEndpoint(), '{}')).status).toBe(204);
    expect(receiver.stats().clientErrors).toBeGreaterThan(0);
  });
});
