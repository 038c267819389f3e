/** The harness on a Node it does not support: one line naming both versions, exit 2 (bin/node-version.js). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../../bin/node-version.js';

const BIN = fileURLToPath(new URL('../../bin/svc-harness.js', import.meta.url));
/** The machine's own Node, which CI replaces on PATH with Node 24: on this project's machines, Node 20. */
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = existsSync(SYSTEM_NODE)
  ? spawnSync(SYSTEM_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : '';

describe('unsupportedNode', () => {
  it.each(['22.22.0', '22.23.1', '24.0.0', '24.21.0', '26.1.0'])('accepts Node %s, as engines does', (version) => {
    expect(unsupportedNode(version)).toBeUndefined();
  });

  it.each(['20.20.2', '22.21.9', '23.11.0', '18.0.0'])(
    'refuses Node %s, naming it and the versions needed',
    (version) => {
      expect(unsupportedNode(version)).toBe(
        `svc-harness: Node ${version} found; Node 22.22 or later in the 22 line, or 24 and later is needed`,
      );
    },
  );
});

describe('bin/svc-harness.js on an older Node', () => {
  it.skipIf(!systemNodeVersion || unsupportedNode(systemNodeVersion) === undefined)(
    'prints one line and exits 2 before loading anything else',
    () => {
      const run = spawnSync(SYSTEM_NODE, [BIN, 'certify'], { encoding: 'utf8', timeout: 10_000 });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `svc-harness: Node ${systemNodeVersion} found; Node 22.22 or later in the 22 line, or 24 and later is needed\n`,
      );
    },
  );
});
