#!/usr/bin/env node
// @ts-check
// The Node version is checked before anything else is loaded: the harness's own modules
// import what an older Node does not have, and would fail with a SyntaxError instead.
import { unsupportedNode } from './node-version.js';

const unsupported = unsupportedNode(process.versions.node);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(2);
}
await import('./start.js');
