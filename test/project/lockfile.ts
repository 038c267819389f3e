// What `npm ci` demands of a lockfile, checked without installing: every dependency that an
// entry declares (optional ones included, whatever the platform) resolves to an entry by
// Node's lookup rule. A registry that lacks some platform packages (rollup's, esbuild's) makes
// npm leave them out, and `npm ci` then refuses the lockfile on every machine.

export interface LockfileEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  link?: boolean;
}

export interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, LockfileEntry>;
}

export interface MissingEntry {
  /** The entry that declares the dependency ("" is the project itself). */
  from: string;
  name: string;
  kind: 'dependency' | 'optional' | 'peer';
}

/** Where Node would look for `name` required from the package at `from`, nearest first. */
export function lookupPaths(from: string, name: string): string[] {
  const paths: string[] = [];
  let dir = from;
  for (;;) {
    paths.push(dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`);
    if (dir === '') return paths;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

export function missingEntries(lock: Lockfile): MissingEntry[] {
  if (lock.lockfileVersion < 2)
    throw new Error(`lockfileVersion ${lock.lockfileVersion} has no "packages" map; regenerate it with npm 7 or later`);
  const missing: MissingEntry[] = [];
  for (const [from, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    const wanted: Array<[string, MissingEntry['kind']]> = [
      ...Object.keys(entry.dependencies ?? {}).map((n) => [n, 'dependency'] as [string, MissingEntry['kind']]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((n) => [n, 'optional'] as [string, MissingEntry['kind']]),
      ...Object.keys(entry.peerDependencies ?? {})
        .filter((n) => !entry.peerDependenciesMeta?.[n]?.optional)
        .map((n) => [n, 'peer'] as [string, MissingEntry['kind']]),
    ];
    for (const [name, kind] of wanted) {
      if (!lookupPaths(from, name).some((p) => p in lock.packages)) missing.push({ from, name, kind });
    }
  }
  return missing;
}
