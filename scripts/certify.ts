/** `npm run certify [-- --allow-production]`: see ../shared/contracts/runner.md and the README. */
import { certify } from '../src/runner/certify.js';

const code = await certify({ argv: process.argv.slice(2) });
process.exit(code);
