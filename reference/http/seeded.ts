// A seeded pseudo-random sequence (mulberry32): the conditions that look random (which
// connection is reset, how much jitter a request gets) must be replayable, so a run that
// met a reset can be repeated with the same seed and meet it at the same request.

/** Uniform numbers in [0, 1), the same sequence for the same seed. */
export function seededSequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
