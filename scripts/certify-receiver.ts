/** `npm run certify:receiver`: certify a webhook receiver (README.md, "Certify your webhook receiver"). */
import { certifyReceiver } from '../src/receiver-cert/runner.js';

const code = await certifyReceiver();
process.exit(code);
