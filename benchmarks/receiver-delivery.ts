/** What the receiver bench sends: a realistic signed voice.call.completed delivery, unique per request. */
import { createHmac } from 'node:crypto';

/** The bench endpoint's signing secret (the servers verify with it). */
export const SECRET = 'whsec_bench_receiver_secret';

/** A signed delivery with a fresh event id, as the service would send it. */
export function signedDelivery(seq: number): { body: string; headers: Record<string, string> } {
  const id = `evt_bench${seq.toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const body = JSON.stringify({
    id,
    type: 'voice.call.completed',
    created_at: new Date().toISOString(),
    workspace_id: 'ws_bench01',
    api_version: '2026-01-15',
    data: {
      call_id: `call_${seq.toString(36)}`,
      agent_id: 'agt_bench01',
      to: '+442079460958',
      duration_seconds: 187,
      outcome: 'answered',
      transcript_url: `https://api.example.test/v1/voice/calls/call_${seq.toString(36)}/transcript`,
      metadata: {
        lead_id: 'lead_8f3k2m9q',
        campaign: 'spring-renewals-2026',
        attempt: '1',
        region: 'eu-west',
        notes: 'callback requested after 5pm local time',
      },
    },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'service-webhooks/1.0',
      'x-service-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
      'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
    },
  };
}
