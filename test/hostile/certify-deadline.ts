/** `svc-harness certify` with a short whole-run deadline (HOSTILE_DEADLINE_MS), to test the deadline without waiting for it. */
import { certify } from '../../src/runner/certify.js';

const code = await certify({
  allowProduction: process.argv.includes('--allow-production'),
  deadlineMs: Number(process.env.HOSTILE_DEADLINE_MS),
});
process.exit(code);
