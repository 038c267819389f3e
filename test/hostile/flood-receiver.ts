/**
 * The capturing receiver alone, as a run starts it (default limits), in its own process so
 * its memory can be measured: prints `{"port":…,"path":…}` and runs until stdin closes.
 */
import { CapturingReceiver } from '../../src/capturing-receiver/index.js';

const receiver = await CapturingReceiver.start();
const endpoint = receiver.createEndpoint({ name: 'flooded' }).setSecret('whsec_floodfloodfloodfloodflood');
process.stdout.write(`${JSON.stringify({ port: receiver.port, path: endpoint.path })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void receiver.close().then(() => process.exit(0)));
