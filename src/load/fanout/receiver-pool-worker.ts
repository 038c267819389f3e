/**
 * One process of a receiver pool (receiver-pool.ts): a capturing receiver listening with
 * SO_REUSEPORT on the pool's port, its endpoints made on the primary's word, and the
 * arrival of every settled delivery sent back in batches. Messages, primary to worker:
 *   {start: ReceiverOptions}  {endpoint: {name, path, secret}}  {stats: true}  {close: true}
 * worker to primary:
 *   {ready: port}  {endpointMade: name}  {arrivals: Arrival[]}  {stats: ReceiverStats}  {failed: message}
 */
import { CapturingReceiver, type ReceiverOptions } from '../../capturing-receiver/index.js';
import { arrivalOf } from './watch.js';
import type { Arrival } from './tally.js';

/** How often arrivals are sent to the primary: one message per batch, not per delivery. */
const FLUSH_EVERY_MS = 50;

export type PoolRequest =
  | { start: ReceiverOptions }
  | { endpoint: { name: string; path: string; secret: string } }
  | { stats: true }
  | { close: true };

let receiver: CapturingReceiver | undefined;
let batch: Arrival[] = [];

const send = (message: object): void => {
  if (process.connected) process.send?.(message);
};

/** Sends the arrivals gathered so far; resolves once the message left (so an exit cannot drop it). */
function flush(): Promise<void> {
  if (batch.length === 0 || !process.connected) return Promise.resolve();
  const arrivals = batch;
  batch = [];
  return new Promise((resolve) => process.send!({ arrivals }, undefined, {}, () => resolve()));
}

const flusher = setInterval(() => void flush(), FLUSH_EVERY_MS);

async function handle(request: PoolRequest): Promise<void> {
  if ('start' in request) {
    receiver = await CapturingReceiver.start({ ...request.start, reusePort: true });
    send({ ready: receiver.port });
  } else if ('endpoint' in request) {
    const { name, path, secret } = request.endpoint;
    const endpoint = receiver!.createEndpoint({ name, path }).setSecret(secret);
    endpoint.onSettled((delivery) => batch.push(arrivalOf(delivery)));
    send({ endpointMade: name });
  } else if ('stats' in request) {
    send({ stats: receiver?.stats() });
  } else {
    clearInterval(flusher);
    await receiver?.close();
    await flush();
    process.exit(0);
  }
}

process.on('message', (request: PoolRequest) => {
  handle(request).catch((error: unknown) => send({ failed: (error as Error).message }));
});
// The primary gone (killed, crashed): nothing is left to report to.
process.on('disconnect', () => process.exit(0));
