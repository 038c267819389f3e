/**
 * k6 durations as seconds. No imports: the k6 scripts (env.ts) and the load command's
 * settings (src/config/load-settings.ts) read LOAD_DURATION with the same function.
 */

/** "20s", "1m30s", "500ms", "2m" or a bare number of seconds, as seconds; throws on anything else. */
export function durationSeconds(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const parts = text.match(/(\d+(?:\.\d+)?)(ms|s|m|h)/g);
  if (!parts || parts.join('') !== text) throw new Error(`not a duration: ${text} (use e.g. 20s, 1m30s)`);
  let total = 0;
  for (const part of parts) {
    const [, amount, unit] = /(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(part)!;
    total += Number(amount) * (unit === 'ms' ? 0.001 : unit === 's' ? 1 : unit === 'm' ? 60 : 3600);
  }
  return total;
}
