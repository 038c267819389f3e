/** A bug's stack from the CLI's bundle, told in the sources' lines (src/cli/stack.ts), from a small project bundled as the harness is. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCliBundle } from '../../src/cli/bundle.js';
import { sourceMappedStack } from '../../src/cli/stack.js';

const root = mkdtempSync(join(tmpdir(), 'stack-project-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** src/data/boom.ts throws on its line 4, column 9 (where `new Error` starts). */
function writeProject(): void {
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(join(root, 'src', 'data'), { recursive: true });
  writeFileSync(
    join(root, 'src', 'data', 'boom.ts'),
    '// A module that fails.\nconst padding: number[] = [1, 2, 3];\nexport function explode(): never {\n  throw new Error(`boom after ${padding.length}`);\n}\n',
  );
  writeFileSync(
    join(root, 'src', 'cli', 'main.ts'),
    "import { explode } from '../data/boom.js';\nexport async function main(argv: readonly string[]): Promise<number> {\n  if (argv[0] === 'boom') explode();\n  return 0;\n}\n",
  );
}

describe('sourceMappedStack', () => {
  it("tells a bundle's frames in the sources' files, lines and columns, and leaves other lines as they are", async () => {
    writeProject();
    const bundle = await writeCliBundle(join(root, 'node_modules', '.cache', 'svc-harness'), root);
    const runner = join(root, 'run.mjs');
    writeFileSync(
      runner,
      `const { main } = await import(${JSON.stringify(pathToFileURL(bundle).href)});\ntry { await main(['boom']); } catch (error) { process.stdout.write(error.stack); }\n`,
    );
    const stack = spawnSync(process.execPath, [runner], { encoding: 'utf8', timeout: 20_000 }).stdout;
    expect(stack).toMatch(/^Error: boom after 3\n/);
    expect(stack).toMatch(/\.mjs:\d+:\d+\)?$/m);
    const mapped = sourceMappedStack(stack);
    expect(mapped).toContain(`explode (${join(root, 'src', 'data', 'boom.ts')}:4:9)`);
    expect(mapped).toContain(`${join(root, 'src', 'cli', 'main.ts')}:3:`);
    expect(mapped.split('\n')[0]).toBe('Error: boom after 3');
    expect(mapped).toContain(`${runner}:2:`);
    expect(mapped).not.toMatch(/cli-[0-9a-f]{16}\/main\.mjs/);
  });

  it('leaves a frame whose bundle has no map, or no such file, as it was', () => {
    const stack = `Error: x\n    at f (file://${root}/absent/main.mjs:1:2)\n    at file://${root}/absent/other.mjs:3:4\n    at node:internal/x:1:1`;
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});
