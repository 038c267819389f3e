/** `scripts/certify.ts` with a short whole-run deadline (HOSTILE_DEADLINE_MS), to test the deadline without waiting for it. */
import { certify } from '../../src/runner/certify.js';

const code = await certify({ argv: process.argv.slice(2), deadlineMs: Number(process.env.HOSTILE_DEADLINE_MS) });
process.exit(code);
