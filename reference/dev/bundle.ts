import { build } from 'esbuild';

/**
 * Bundles an entry point of the reference into one CommonJS file for this Node, the way
 * the container image ships it (scripts/image.ts) and the bench runs it: everything
 * inlined, nothing minified. Unlike the tsx loader of development runs, the bundle does
 * not keep function names (`keepNames`), which costs a defineProperty on every closure
 * made on the hot path (a cost the call placement bench shows plainly).
 * The entry point must not use top-level await (CommonJS has none).
 */
export async function bundleReference(entryPoint: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: false,
    minify: false,
    logLevel: 'warning',
    legalComments: 'none',
  });
}
