import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Lockfile, lookupPaths, missingEntries } from './lockfile.js';

const committed = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile;

describe('package-lock.json', () => {
  it('has an entry for every dependency of every platform, so `npm ci` accepts it', () => {
    expect(missingEntries(committed)).toEqual([]);
  });

  it('holds every platform package of rollup and esbuild', () => {
    const platformPackages = (scope: string) =>
      Object.keys(committed.packages).filter((p) => p.startsWith(`node_modules/${scope}/`));
    expect(platformPackages('@rollup').length).toBeGreaterThanOrEqual(20);
    expect(platformPackages('@esbuild').length).toBeGreaterThanOrEqual(20);
  });
});

describe('missingEntries', () => {
  const lock = (packages: Lockfile['packages']): Lockfile => ({ lockfileVersion: 3, packages });

  it('finds an optional platform package the registry left out', () => {
    const broken = lock({
      '': { dependencies: { rollup: '4.68.7' } },
      'node_modules/rollup': {
        optionalDependencies: { '@rollup/rollup-linux-x64-gnu': '4.68.7', '@rollup/rollup-android-arm-eabi': '4.68.7' },
      },
      'node_modules/@rollup/rollup-linux-x64-gnu': {},
    });
    expect(missingEntries(broken)).toEqual([
      { from: 'node_modules/rollup', name: '@rollup/rollup-android-arm-eabi', kind: 'optional' },
    ]);
  });

  it('resolves a dependency hoisted above the package that needs it', () => {
    const hoisted = lock({
      '': { dependencies: { a: '1' } },
      'node_modules/a': { dependencies: { b: '1' } },
      'node_modules/a/node_modules/c': { dependencies: { b: '1' } },
      'node_modules/b': {},
    });
    expect(missingEntries(hoisted)).toEqual([]);
  });

  it('ignores optional peers but not required ones', () => {
    const peers = lock({
      '': { dependencies: { a: '1' } },
      'node_modules/a': { peerDependencies: { p: '1', q: '1' }, peerDependenciesMeta: { q: { optional: true } } },
    });
    expect(missingEntries(peers)).toEqual([{ from: 'node_modules/a', name: 'p', kind: 'peer' }]);
  });

  it('walks nested node_modules from nearest to the root', () => {
    expect(lookupPaths('node_modules/a/node_modules/b', 'c')).toEqual([
      'node_modules/a/node_modules/b/node_modules/c',
      'node_modules/a/node_modules/c',
      'node_modules/c',
    ]);
  });
});
