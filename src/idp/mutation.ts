/**
 * A fast-check arbitrary of byte-level mutations of a valid JWT: one to three edits
 * (xor, insert, delete, truncate, append) of the decoded bytes of one segment, which
 * is then re-encoded canonically. Working on decoded bytes, not on base64url text,
 * guarantees a real change: editing the last character of a segment can leave the
 * decoded bytes as they were (its low bits are padding), and lenient decoders skip
 * characters outside the alphabet, so text edits may yield the same token in effect.
 *
 * A value prints (in fast-check counterexamples) as its edits only, never the token.
 */
import fc from 'fast-check';
import { decodeBytes, encodeBytes, joinJwt, splitJwt, type JwtPart } from './jwt-parts.js';

export type ByteEdit =
  | { op: 'xor'; index: number; mask: number }
  | { op: 'insert'; index: number; byte: number }
  | { op: 'delete'; index: number }
  | { op: 'truncate'; length: number }
  | { op: 'append'; bytes: number[] };

export interface JwtMutation {
  /** The mutated token. A secret: never print it. */
  token: string;
  part: JwtPart;
  edits: ByteEdit[];
  /** e.g. "signature: xor byte 17 with 0x04, delete byte 3" */
  description: string;
  [fc.toStringMethod](): string;
}

const PARTS: readonly JwtPart[] = ['header', 'payload', 'signature'];

/**
 * Positions are drawn as fractions of the current length, so one edit description
 * stays meaningful after an earlier edit changed the length.
 */
export type EditPlan =
  | { op: 'xor'; at: number; mask: number }
  | { op: 'insert'; at: number; byte: number }
  | { op: 'delete'; at: number }
  | { op: 'truncate'; at: number }
  | { op: 'append'; bytes: number[] };

const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const byte = fc.integer({ min: 0, max: 255 });

const editPlan: fc.Arbitrary<EditPlan> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('xor' as const), at: fraction, mask: fc.integer({ min: 1, max: 255 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fraction, byte }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: fraction }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('append' as const), bytes: fc.array(byte, { minLength: 1, maxLength: 8 }) }),
  },
);

/** Applies one plan to the bytes; returns the concrete edit, or undefined when it cannot apply (empty input). */
function applyEdit(bytes: number[], plan: EditPlan): ByteEdit | undefined {
  const n = bytes.length;
  switch (plan.op) {
    case 'xor': {
      if (n === 0) return undefined;
      const index = Math.floor(plan.at * n);
      bytes[index] = bytes[index]! ^ plan.mask;
      return { op: 'xor', index, mask: plan.mask };
    }
    case 'insert': {
      const index = Math.floor(plan.at * (n + 1));
      bytes.splice(index, 0, plan.byte);
      return { op: 'insert', index, byte: plan.byte };
    }
    case 'delete': {
      if (n === 0) return undefined;
      const index = Math.floor(plan.at * n);
      bytes.splice(index, 1);
      return { op: 'delete', index };
    }
    case 'truncate': {
      if (n === 0) return undefined;
      const length = Math.floor(plan.at * n);
      bytes.length = length;
      return { op: 'truncate', length };
    }
    case 'append':
      bytes.push(...plan.bytes);
      return { op: 'append', bytes: [...plan.bytes] };
  }
}

export function describeEdit(edit: ByteEdit): string {
  switch (edit.op) {
    case 'xor':
      return `xor byte ${edit.index} with 0x${edit.mask.toString(16).padStart(2, '0')}`;
    case 'insert':
      return `insert 0x${edit.byte.toString(16).padStart(2, '0')} at ${edit.index}`;
    case 'delete':
      return `delete byte ${edit.index}`;
    case 'truncate':
      return `truncate to ${edit.length} bytes`;
    case 'append':
      return `append ${edit.bytes.length} bytes`;
  }
}

function sameBytes(a: readonly number[], b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export function mutateJwt(validJwt: string, part: JwtPart, plans: readonly EditPlan[]): JwtMutation | undefined {
  const segments = splitJwt(validJwt);
  const original = decodeBytes(segments[part]);
  const bytes = [...original];
  const edits: ByteEdit[] = [];
  for (const plan of plans) {
    const edit = applyEdit(bytes, plan);
    if (edit) edits.push(edit);
  }
  // Two edits may cancel out (xor the same byte twice): such a draw is no mutation.
  if (sameBytes(bytes, original)) return undefined;
  const token = joinJwt({ ...segments, [part]: encodeBytes(Uint8Array.from(bytes)) });
  const description = `${part}: ${edits.map(describeEdit).join(', ')}`;
  return { token, part, edits, description, [fc.toStringMethod]: () => description };
}

/** Random byte-level mutations of `validJwt`, each guaranteed to differ from it. */
export function jwtMutation(validJwt: string): fc.Arbitrary<JwtMutation> {
  splitJwt(validJwt); // fail at once on a token that is not a compact JWS
  return fc
    .tuple(fc.constantFrom(...PARTS), fc.array(editPlan, { minLength: 1, maxLength: 3 }))
    .map(([part, plans]) => mutateJwt(validJwt, part, plans))
    .filter((mutation): mutation is JwtMutation => mutation !== undefined && mutation.token !== validJwt);
}
