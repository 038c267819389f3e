/** `npm run certify [-- --allow-production]`: see ../shared/contracts/runner.md and the README. */
import { certify } from '../src/runner/certify.js';

const USAGE = `usage: npm run certify [-- --allow-production]
Certifies the service named by SVC_BASE_URL (or the bundled reference when unset).
Settings come from the environment, then .env; see README.md and .env.example.
Exit: 0 passed, 1 a must check failed, 2 the run could not happen, 130 interrupted.`;

const argv = process.argv.slice(2);
const unknown = argv.filter((arg) => arg !== '--allow-production');
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (unknown.length > 0) {
  console.error(`certify: unknown argument ${unknown.join(' ')}; ${USAGE.split('\n')[0]}`);
  process.exit(2);
}
process.exit(await certify({ argv }));
