/**
 * The constant-time probe (Events > Signature, 4: compare in constant time). It sends
 * rejected deliveries whose signatures share 0, 16, 32, 48 and 63 leading hex characters
 * with the right one, in shuffled rounds (so drifts of load hit every length alike), one at
 * a time over one kept-alive connection, and compares the answer times per prefix length.
 *
 * Always an observation, never a verdict: network and scheduling jitter hide any leak
 * smaller than their spread, so a flat result does not prove a constant-time comparison,
 * and a slope can come from something other than the comparison.
 */
import { envelopeBody } from '../fixtures.js';
import { requireBaseline } from '../context.js';
import { acknowledged } from '../sender.js';
import {
  MIN_VISIBLE_SPREAD_MS,
  RHO_THRESHOLD,
  signatureWithPrefix,
  summarizeTiming,
  type TimingSample,
} from '../timing.js';
import { BudgetExhausted } from '../../errors.js';
import { check, receiverSuite } from '../registry.js';

const PREFIX_LENGTHS = [0, 16, 32, 48, 63] as const;
const WARM_UP = 5;

const LIMITS =
  'Limits: only differences larger than the jitter of network and scheduling are visible ' +
  `(here: spreads under ${MIN_VISIBLE_SPREAD_MS} ms or half the spread of the shortest prefix are not reported); ` +
  'no signal does not prove a constant-time compare, and a signal can have another cause.';

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

receiverSuite('receiver-timing', () => {
  check('RCV-TIMING-CONSTANT-TIME', async (t) => {
    const rounds = t.settings.timingSamples;
    if (rounds === 0) t.skip('TARGET_RECEIVER_TIMING_SAMPLES is 0');
    requireBaseline(t);
    const { body } = envelopeBody();
    const right = t.sender.sign(body);
    const samples: TimingSample[] = [];
    let accepted = 0;
    let stopped = '';
    try {
      for (let i = 0; i < WARM_UP; i++) {
        await t.sender.deliver({
          purpose: 'invalid',
          label: 'timing warm-up',
          body,
          signature: signatureWithPrefix(right, 0, t.random),
        });
      }
      for (let round = 0; round < rounds; round++) {
        for (const prefix of shuffle([...PREFIX_LENGTHS], t.random)) {
          const exchange = await t.sender.deliver({
            purpose: 'invalid',
            label: `timing probe, ${prefix} chars right`,
            body,
            signature: signatureWithPrefix(right, prefix, t.random),
          });
          if (acknowledged(exchange)) accepted++;
          if (exchange.status !== null) samples.push({ prefix, ms: exchange.durationMs });
        }
      }
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
      stopped = `; stopped early: ${error.message}`;
    }
    if (samples.length < PREFIX_LENGTHS.length * 3) t.skip(`too few answered samples (${samples.length})${stopped}`);
    const summary = summarizeTiming(samples);
    const medians = summary.prefixLengths.map((p) => `${p}:${summary.medianMsByPrefix[p]!.toFixed(3)}`).join(' ');
    const finding = summary.leakSuspected
      ? `TIMING SIGNAL: answers take longer as more leading characters match (+${summary.spreadMs.toFixed(3)} ms from ${summary.prefixLengths[0]} to ${summary.prefixLengths.at(-1)} chars, about ${summary.slopeUsPerChar.toFixed(1)} µs per char, Spearman ρ=${summary.spearmanRho}); this looks like an early-exit comparison`
      : `no timing signal above the noise (spread ${summary.spreadMs.toFixed(3)} ms, Spearman ρ=${summary.spearmanRho}, threshold ρ≥${RHO_THRESHOLD})`;
    const detail =
      `${finding}. Median ms by matching prefix length ${medians} over ${summary.samples} samples` +
      `${accepted > 0 ? `; ${accepted} wrong signatures were ACKNOWLEDGED` : ''}${stopped}. ${LIMITS}`;
    t.measureAll({
      prefix_lengths: summary.prefixLengths,
      samples: summary.samples,
      median_ms_by_prefix: summary.medianMsByPrefix,
      iqr_ms_by_prefix: summary.iqrMsByPrefix,
      spearman_rho: summary.spearmanRho,
      slope_us_per_char: summary.slopeUsPerChar,
      spread_ms: summary.spreadMs,
      leak_suspected: summary.leakSuspected,
    });
    t.detail(detail);
  });
});
