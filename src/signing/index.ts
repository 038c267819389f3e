export { signBody, hmacDigest, signingKey } from './sign.js';
export type { SigningKey } from './sign.js';
export { verifySignature } from './verify.js';
export type { SignatureVerdict, SignatureFailure } from './verify.js';
export { checkTimestamp, DEFAULT_TIMESTAMP_TOLERANCE_SECONDS } from './timestamp.js';
export type { TimestampVerdict, TimestampFailure } from './timestamp.js';
export { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './headers.js';
