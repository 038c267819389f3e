/**
 * The servers of the reference bench, in a child process of their own (started by
 * reference.ts) so that the load generator and the server do not share one event loop:
 * `bare` is a node:http server answering 204 without reading the body, `reference` the
 * reference implementation. The bench bundles this file with the image's esbuild options
 * (reference/dev/bundle.ts) and runs it with plain node, so the reference is measured as
 * it ships. Prints one JSON line once listening; stops on SIGTERM. The control token
 * comes in BENCH_CONTROL_TOKEN and never travels back. No top-level await: bundled as CJS.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReference } from '../reference/index.js';

function announce(info: { baseUrl: string; controlUrl?: string }): void {
  process.stdout.write(JSON.stringify(info) + '\n');
}

function serveBare(): void {
  const bare = createServer((_req, res) => {
    res.statusCode = 204;
    res.end();
  });
  bare.listen(0, '127.0.0.1', () => announce({ baseUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}` }));
  process.on('SIGTERM', () => {
    bare.closeAllConnections();
    bare.close(() => process.exit(0));
  });
}

function serveReference(): void {
  void startReference({ quiet: true, deliveryTimeoutMs: 30_000, controlToken: process.env.BENCH_CONTROL_TOKEN }).then(
    (reference) => {
      announce({ baseUrl: reference.baseUrl, controlUrl: reference.controlUrl });
      process.on('SIGTERM', () => void reference.close().then(() => process.exit(0)));
    },
  );
}

const role = process.argv[2];
if (role === 'bare') serveBare();
else if (role === 'reference') serveReference();
else {
  process.stderr.write(`reference-servers: role must be bare or reference, got "${role ?? ''}"\n`);
  process.exit(2);
}
