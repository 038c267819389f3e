/**
 * Which failed requests went out on a kept-alive connection that the other side had already
 * given up. A server or forward proxy may close a connection it keeps alive whenever it likes
 * (RFC 9112, 9.3): an idle time-out, or after every answer as tinyproxy does while still
 * answering HTTP/1.1 without `Connection: close`. A request written onto such a connection
 * meets the close before any byte of its answer, and the target never read it.
 *
 * undici tells its subscribers on which socket it wrote each request (its diagnostics channels,
 * `undici:client:sendHeaders` and `undici:request:error`); this module keeps, per socket, how
 * many requests it carried, and marks the error of a request that was not the socket's first,
 * saw the other side close the connection (not reset it) and read not one byte after it was sent.
 * A reset, a time-out, or an answer begun are never marked: the target may have acted.
 */
import { subscribe } from 'node:diagnostics_channel';

/** What undici publishes on the two channels, as far as this module reads it. */
interface SentMessage {
  request: object;
  socket: { bytesRead: number };
}
interface ErrorMessage {
  request: object;
  error: unknown;
}

/** undici's code for a connection the other side closed (its SocketError: "other side closed", "closed"). */
const CLOSED_BY_PEER = 'UND_ERR_SOCKET';

const requestsCarried = new WeakMap<object, number>();
const sentOnReused = new WeakMap<object, { socket: { bytesRead: number }; bytesReadAtSend: number }>();
const staleFailures = new WeakSet<object>();

let watching = false;

/**
 * From now on, marks the failures of this process's requests on stale connections. Called by the
 * process that sends the checks' requests (the suites' worker, src/suite/harness.ts), not where
 * the embedded reference delivers its webhooks with undici: the channels are process-wide.
 */
export function watchStaleConnections(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as SentMessage;
    const carried = requestsCarried.get(socket) ?? 0;
    requestsCarried.set(socket, carried + 1);
    if (carried > 0) sentOnReused.set(request, { socket, bytesReadAtSend: socket.bytesRead });
  });
  subscribe('undici:request:error', (message) => {
    const { request, error } = message as ErrorMessage;
    const sent = sentOnReused.get(request);
    if (!sent || typeof error !== 'object' || error === null) return;
    if ((error as { code?: unknown }).code !== CLOSED_BY_PEER) return;
    if (sent.socket.bytesRead !== sent.bytesReadAtSend) return;
    staleFailures.add(error);
  });
}

/**
 * Whether `error` ended a request sent on a reused connection that the other side had closed
 * before any byte of an answer: nothing shows the target read it, and it may be sent again on
 * a new connection.
 */
export function failedOnStaleConnection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && staleFailures.has(error);
}
