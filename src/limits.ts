/** Figures of the spec's Limits table that more than one check, or a check and the report, read. */

/** "Revocation propagation: under 1 minute": a revoked token is refused within it. */
export const REVOCATION_LIMIT_MS = 60_000;
