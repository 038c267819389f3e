import type { SignatureVerdict, TimestampVerdict } from '../signing/index.js';
import { decodeHead, encodeParsedHead } from './head.js';
import type { AnswerState, CapturedDelivery } from './types.js';
import { rebuildVerdicts } from './verdicts.js';

/** How many deliveries a log keeps at most, and how many body bytes. */
export interface DeliveryLogLimits {
  maxDeliveries: number;
  maxStoredBytes: number;
}

/**
 * The newest deliveries, kept as the objects they arrived as. A log that keeps no more than
 * these (a load run keeps 100) writes nothing down.
 */
export const YOUNG_DELIVERIES = 128;
const YOUNG_MASK = YOUNG_DELIVERIES - 1;

/**
 * The deliveries one endpoint keeps, oldest first. Each is written down compactly: its head
 * (method, path, query, headers) and body as bytes in a few large buffers, its numbers and
 * verdicts in typed columns. A receiver keeping 10,000 deliveries as objects made the garbage
 * collector copy and mark about fifteen small objects per delivery, which cost it more CPU
 * than verifying the delivery (the receiver bench shows it); kept as bytes and numbers, they
 * cost it almost nothing.
 *
 * The newest YOUNG_DELIVERIES are also kept as the objects the receiver answered through;
 * they die young, before the collector has to move most of them. Once a log has had more
 * deliveries than that, it writes each down as soon as it and every one before it are
 * answered, while its memory is still in the CPU's caches, rather than 128 deliveries later
 * as it leaves #young (the receiver bench found that cheaper). One still pending, or behind
 * one that is, is written down as it leaves #young. So the newest bodies may be held twice, as objects and as bytes:
 * at most YOUNG_DELIVERIES of them.
 *
 * A delivery written down becomes an object again when it is read (`list()`), once: from then
 * on the same object is returned, so a check that holds one sees its answer settle. While its
 * answer is pending, a delivery is kept as the object the receiver is answering through.
 */
export class DeliveryLog {
  readonly #limits: DeliveryLogLimits;
  /** Whether a delivery can outlive #young: a log that keeps no more than it writes nothing down. */
  readonly #writesDown: boolean;
  readonly #endpoint: string;
  /**
   * Indices only grow: deliveries [first, written) are written down. The newest, from
   * max(first, next - YOUNG_DELIVERIES) to next, are in #young at index & YOUNG_MASK; so are
   * all of [written, next).
   */
  #first = 0;
  #written = 0;
  #next = 0;
  readonly #young: (CapturedDelivery | undefined)[] = new Array<CapturedDelivery | undefined>(YOUNG_DELIVERIES).fill(
    undefined,
  );
  #columns = new Columns(8);
  #storedBodyBytes = 0;
  readonly #slabs = new Slabs();
  /** Deliveries [first, first + list.length) as objects: the part already read. */
  readonly #list: CapturedDelivery[] = [];
  /** Deliveries written down while their answer was pending, by object and by index. */
  readonly #unsettledIndex = new Map<CapturedDelivery, number>();
  readonly #unsettledAt = new Map<number, CapturedDelivery>();

  constructor(endpoint: string, limits: DeliveryLogLimits) {
    this.#endpoint = endpoint;
    this.#limits = limits;
    this.#writesDown = limits.maxDeliveries > YOUNG_DELIVERIES;
  }

  get length(): number {
    return this.#next - this.#first;
  }

  /** Bytes of the buffers the written-down deliveries are in. */
  get retainedBytes(): number {
    return this.#slabs.bytesHeld;
  }

  /** Keeps `delivery` (answer still pending); returns how many of the oldest were dropped to make room. */
  append(delivery: CapturedDelivery): number {
    const index = this.#next++;
    this.#storedBodyBytes += delivery.rawBody.length;
    let dropped = 0;
    // Dropped first, so that what is dropped now is not written down; the new one is not in
    // #young yet, and the oldest young one may be in the slot it will take.
    while (
      this.length > 1 &&
      (this.length > this.#limits.maxDeliveries || this.#storedBodyBytes > this.#limits.maxStoredBytes)
    ) {
      this.#dropOldest();
      dropped++;
    }
    // The delivery leaving #young for this one's slot, still pending or behind one that is, is
    // written down now.
    if (index - YOUNG_DELIVERIES === this.#written) this.#writeDown();
    this.#young[index & YOUNG_MASK] = delivery;
    return dropped;
  }

  /**
   * The receiver finished answering `delivery`. If it was written down while pending, its
   * answer is now. If every delivery before it is written down, it is too, with any answered
   * ones after it: while its memory is still in the CPU's caches (see the class comment).
   */
  settle(delivery: CapturedDelivery): void {
    if (this.#unsettledIndex.size > 0) this.#settleWrittenDown(delivery);
    // Not before the log has had more than #young holds: a check's endpoint gets a few
    // deliveries, and a run makes thousands of endpoints, which would each hold a 4 KiB slab.
    if (!this.#writesDown || this.#next <= YOUNG_DELIVERIES) return;
    while (this.#written < this.#next && this.#young[this.#written & YOUNG_MASK]!.answer !== 'pending')
      this.#writeDown();
  }

  #settleWrittenDown(delivery: CapturedDelivery): void {
    const index = this.#unsettledIndex.get(delivery);
    if (index === undefined) return;
    this.#unsettledIndex.delete(delivery);
    this.#unsettledAt.delete(index);
    if (index >= this.#first) this.#columns.setAnswer(index & this.#columns.mask, delivery);
  }

  /** Every kept delivery as an object, oldest first; the same array and objects on every call. */
  list(): readonly CapturedDelivery[] {
    for (let index = this.#first + this.#list.length; index < this.#next; index++)
      this.#list.push(this.#materialize(index));
    return this.#list;
  }

  /** Writes down the oldest delivery not written down yet (in #young). */
  #writeDown(): void {
    const index = this.#written++;
    const delivery = this.#young[index & YOUNG_MASK]!;
    if (index - this.#first === this.#columns.capacity) this.#columns = this.#columns.grown(this.#first, index);
    const head = encodeParsedHead(delivery.method, delivery.path, delivery.query, delivery.headers);
    const at = this.#slabs.write(head, delivery.rawBody);
    this.#columns.set(index & this.#columns.mask, delivery, at);
    if (delivery.answer === 'pending') {
      this.#unsettledIndex.set(delivery, index);
      this.#unsettledAt.set(index, delivery);
    }
  }

  #dropOldest(): void {
    const index = this.#first++;
    if (this.#list.length > 0) this.#list.shift();
    if (index >= this.#written) {
      // Not written down yet: it is only in #young.
      this.#storedBodyBytes -= this.#young[index & YOUNG_MASK]!.rawBody.length;
      this.#young[index & YOUNG_MASK] = undefined;
      this.#written = this.#first;
      return;
    }
    this.#storedBodyBytes -= this.#columns.bodyLength[index & this.#columns.mask]!;
    // Still in #young (append has counted the new one, not put it in yet): let it go now.
    if (index >= this.#next - 1 - YOUNG_DELIVERIES) this.#young[index & YOUNG_MASK] = undefined;
    this.#slabs.release(
      this.#first === this.#written ? undefined : this.#columns.slab[this.#first & this.#columns.mask]!,
    );
  }

  #materialize(index: number): CapturedDelivery {
    if (index >= this.#next - YOUNG_DELIVERIES) return this.#young[index & YOUNG_MASK]!;
    const pending = this.#unsettledAt.get(index);
    if (pending !== undefined) return pending;
    const columns = this.#columns;
    const slot = index & columns.mask;
    const bytes = this.#slabs.bytes(
      columns.slab[slot]!,
      columns.offset[slot]!,
      columns.headLength[slot]! + columns.bodyLength[slot]!,
    );
    const { method, path, query, headers } = decodeHead(bytes.toString('utf8', 0, columns.headLength[slot]!));
    const rawBody = bytes.subarray(columns.headLength[slot]!);
    const attempt = columns.attempt[slot]!;
    const status = columns.answeredStatus[slot]!;
    const after = columns.answeredAfterMs[slot]!;
    return {
      seq: columns.seq[slot]!,
      endpoint: this.#endpoint,
      method,
      path,
      query,
      headers,
      rawBody,
      receivedAtMs: columns.receivedAtMs[slot]!,
      receivedAtMono: columns.receivedAtMono[slot]!,
      attempt,
      answer: ANSWER_STATES[columns.answer[slot]!]!,
      answeredStatus: status === 0 ? null : status,
      answeredAfterMs: Number.isNaN(after) ? null : after,
      verdicts: rebuildVerdicts(
        rawBody,
        signatureOf(columns.signature[slot]!),
        timestampOf(columns.timestamp[slot]!, columns.skewSeconds[slot]!),
        attempt > 1,
      ),
    };
  }
}

const ANSWER_STATES: readonly AnswerState[] = ['pending', 'sent', 'reset', 'timed-out', 'client-closed'];
const SIGNATURES = ['no-secret', 'ok', 'missing', 'length', 'not-lowercase-hex', 'mismatch'] as const;
const TIMESTAMPS = ['ok', 'missing', 'not-integer', 'too-old', 'too-new'] as const;

function signatureCode(verdict: SignatureVerdict | 'no-secret'): number {
  return verdict === 'no-secret' ? 0 : verdict.ok ? 1 : SIGNATURES.indexOf(verdict.reason);
}

function signatureOf(code: number): SignatureVerdict | 'no-secret' {
  const name = SIGNATURES[code]!;
  if (name === 'no-secret') return name;
  return name === 'ok' ? { ok: true } : { ok: false, reason: name };
}

function timestampCode(verdict: TimestampVerdict): number {
  return verdict.ok ? 0 : TIMESTAMPS.indexOf(verdict.reason);
}

function timestampOf(code: number, skewSeconds: number): TimestampVerdict {
  const name = TIMESTAMPS[code]!;
  if (name === 'ok') return { ok: true, skewSeconds };
  return Number.isNaN(skewSeconds) ? { ok: false, reason: name } : { ok: false, reason: name, skewSeconds };
}

/** Where a delivery's bytes are: which slab, and where in it. */
interface BytesAt {
  slab: number;
  offset: number;
  headLength: number;
}

/**
 * One typed array per field of a delivery, a ring of `capacity` (a power of two) slots; a
 * delivery's slot is its index & mask. Grown by doubling, so an endpoint that receives five
 * deliveries costs a few hundred bytes, not a full ring.
 */
class Columns {
  readonly mask: number;
  readonly seq: Float64Array;
  readonly receivedAtMs: Float64Array;
  readonly receivedAtMono: Float64Array;
  readonly answeredAfterMs: Float64Array;
  readonly skewSeconds: Float64Array;
  readonly slab: Float64Array;
  readonly offset: Uint32Array;
  readonly headLength: Uint32Array;
  readonly bodyLength: Uint32Array;
  readonly attempt: Uint32Array;
  readonly answeredStatus: Uint16Array;
  readonly answer: Uint8Array;
  readonly signature: Uint8Array;
  readonly timestamp: Uint8Array;

  constructor(readonly capacity: number) {
    this.mask = capacity - 1;
    this.seq = new Float64Array(capacity);
    this.receivedAtMs = new Float64Array(capacity);
    this.receivedAtMono = new Float64Array(capacity);
    this.answeredAfterMs = new Float64Array(capacity);
    this.skewSeconds = new Float64Array(capacity);
    this.slab = new Float64Array(capacity);
    this.offset = new Uint32Array(capacity);
    this.headLength = new Uint32Array(capacity);
    this.bodyLength = new Uint32Array(capacity);
    this.attempt = new Uint32Array(capacity);
    this.answeredStatus = new Uint16Array(capacity);
    this.answer = new Uint8Array(capacity);
    this.signature = new Uint8Array(capacity);
    this.timestamp = new Uint8Array(capacity);
  }

  set(slot: number, delivery: CapturedDelivery, at: BytesAt): void {
    this.seq[slot] = delivery.seq;
    this.receivedAtMs[slot] = delivery.receivedAtMs;
    this.receivedAtMono[slot] = delivery.receivedAtMono;
    this.slab[slot] = at.slab;
    this.offset[slot] = at.offset;
    this.headLength[slot] = at.headLength;
    this.bodyLength[slot] = delivery.rawBody.length;
    this.attempt[slot] = delivery.attempt;
    const { signature, timestamp } = delivery.verdicts;
    this.signature[slot] = signatureCode(signature);
    this.timestamp[slot] = timestampCode(timestamp);
    this.skewSeconds[slot] = timestamp.skewSeconds ?? Number.NaN;
    this.setAnswer(slot, delivery);
  }

  setAnswer(slot: number, delivery: CapturedDelivery): void {
    this.answer[slot] = ANSWER_STATES.indexOf(delivery.answer);
    this.answeredStatus[slot] = delivery.answeredStatus ?? 0;
    this.answeredAfterMs[slot] = delivery.answeredAfterMs ?? Number.NaN;
  }

  /** The same deliveries [first, next) in a ring twice as large. */
  grown(first: number, next: number): Columns {
    const grown = new Columns(this.capacity * 2);
    const fields = [
      'seq',
      'receivedAtMs',
      'receivedAtMono',
      'answeredAfterMs',
      'skewSeconds',
      'slab',
      'offset',
      'headLength',
      'bodyLength',
      'attempt',
      'answeredStatus',
      'answer',
      'signature',
      'timestamp',
    ] as const;
    for (let index = first; index < next; index++) {
      const from = index & this.mask;
      const to = index & grown.mask;
      for (const field of fields) grown[field][to] = this[field][from]!;
    }
    return grown;
  }
}

/** The first slab of an endpoint; each next one is twice as large, up to SLAB_BYTES. */
const FIRST_SLAB_BYTES = 4 * 1024;
const SLAB_BYTES = 256 * 1024;

/** Released slabs kept for reuse, at most. */
const SPARE_SLABS = 2;

/**
 * Buffers the deliveries' bytes are written into one after another, each numbered; the
 * oldest is released once no kept delivery is in it. A released slab is written over again
 * only if no delivery in it was ever read: a body a check holds stays as it was. Reuse
 * spares the allocator and the kernel a fresh 256 KiB (64 pages to fault in) every few
 * hundred deliveries.
 */
class Slabs {
  readonly #buffers: Buffer[] = [];
  /** Whether a view of #buffers[i] was handed out. */
  readonly #viewed: boolean[] = [];
  readonly #spares: Buffer[] = [];
  /** Number of #buffers[0]; each later one is numbered one more. */
  #firstNumber = 0;
  #used = 0;

  /** Writes a delivery's head (a string) and body one after the other; says where. */
  write(head: string, body: Buffer): BytesAt {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: room for that, the head cannot be cut.
    const room = head.length * 3 + body.length;
    let current = this.#buffers[this.#buffers.length - 1];
    if (current === undefined || current.length - this.#used < room) {
      current = this.#nextSlab(room, current?.length ?? FIRST_SLAB_BYTES / 2);
      this.#buffers.push(current);
      this.#viewed.push(false);
      this.#used = 0;
    }
    const offset = this.#used;
    const headLength = current.write(head, offset);
    // Uint8Array's own set: Buffer's copy() checks its arguments in JavaScript first.
    current.set(body, offset + headLength);
    this.#used = offset + headLength + body.length;
    return { slab: this.#firstNumber + this.#buffers.length - 1, offset, headLength };
  }

  get bytesHeld(): number {
    let total = 0;
    for (const buffer of this.#buffers) total += buffer.length;
    for (const buffer of this.#spares) total += buffer.length;
    return total;
  }

  /** A view of a delivery's bytes; its slab is never written over after this. */
  bytes(slab: number, offset: number, length: number): Buffer {
    this.#viewed[slab - this.#firstNumber] = true;
    return this.#buffers[slab - this.#firstNumber]!.subarray(offset, offset + length);
  }

  /** Releases every slab before `oldestInUse` (all but the current one when nothing is kept). */
  release(oldestInUse: number | undefined): void {
    const keepFrom = oldestInUse ?? this.#firstNumber + this.#buffers.length - 1;
    while (this.#firstNumber < keepFrom) {
      const released = this.#buffers.shift()!;
      const viewed = this.#viewed.shift()!;
      if (!viewed && released.length === SLAB_BYTES && this.#spares.length < SPARE_SLABS) this.#spares.push(released);
      this.#firstNumber++;
    }
  }

  /** A spare when it is large enough, else a new slab: twice the last one, up to SLAB_BYTES, and at least `room`. */
  #nextSlab(room: number, lastLength: number): Buffer {
    const length = Math.max(room, Math.min(SLAB_BYTES, lastLength * 2));
    if (length === SLAB_BYTES && this.#spares.length > 0) return this.#spares.pop()!;
    return Buffer.allocUnsafeSlow(length);
  }
}
