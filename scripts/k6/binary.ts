/**
 * Finds (or builds) k6 for CI and for people; the library is src/load/k6/binary.ts and
 * src/load/k6/build.ts.
 *
 *   npx tsx scripts/k6/binary.ts --ensure   find or build; prints the path (.ci/run runs this)
 *   npx tsx scripts/k6/binary.ts --find     find only; exit 1 with how-to when absent
 */
import { k6Binary } from '../../src/load/k6/build.js';

const argv = process.argv.slice(2);
const ensure = argv.includes('--ensure');
if (!ensure && !argv.includes('--find')) {
  process.stderr.write('usage: tsx scripts/k6/binary.ts --ensure | --find\n');
  process.exit(2);
}
try {
  const found = await k6Binary({ build: ensure });
  process.stdout.write(`${found.path}\n`);
  process.stderr.write(`k6 ${found.version} (${found.source})\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
