import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { strykerPlugins } from '../../scripts/mutate/fault-switch-ignorer.js';
import { plannedMutants } from '../../scripts/mutate/instrument.js';

// The Babel that Stryker's instrumenter walks the reference with; it ships no types of its own.
interface NodePath {
  toString(): string;
  skip(): void;
}
interface Babel {
  parseSync(code: string, options: object): unknown;
  traverse(ast: unknown, visitor: { enter(path: NodePath): void }): void;
}
const babel = createRequire(import.meta.url)('@babel/core') as Babel;
const ignorer = strykerPlugins[0]!.value as { shouldIgnore(path: NodePath): string | undefined };

/** The code the ignorer leaves out, outermost first, as Stryker walks it (an ignored node's children go with it). */
function ignoredIn(code: string): string[] {
  const ast = babel.parseSync(code, { filename: 'reference.js', configFile: false, babelrc: false });
  const ignored: string[] = [];
  babel.traverse(ast, {
    enter(path) {
      if (ignorer.shouldIgnore(path) === undefined) return;
      ignored.push(path.toString());
      path.skip();
    },
  });
  return ignored;
}

/** Every mutant Stryker's own instrumenter makes of `code` with the ignorer: its text, and whether it runs. */
async function mutantsOf(code: string): Promise<{ original: string; replacement: string; runs: boolean }[]> {
  const mutants = await plannedMutants('reference.js', code);
  const lines = code.split('\n');
  return mutants.map((mutant) => {
    const { start, end } = mutant.location;
    const original =
      start.line === end.line
        ? lines[start.line]!.slice(start.column, end.column)
        : `${lines[start.line]!.slice(start.column)}…`;
    return { original, replacement: mutant.replacement, runs: mutant.status === undefined };
  });
}

describe('fault-switch ignorer', () => {
  it('leaves out a switch, what is and-ed with it, and the branch it guards, but not the and itself', () => {
    const code = [
      'function progress(faults, call) {',
      "  if (call.ok && faults.has('moves-every-call')) moveAll();",
      "  return call.ok && faults.has('late') ? later() : now();",
      '}',
    ].join('\n');
    expect(ignoredIn(code)).toEqual([
      'call.ok',
      "faults.has('moves-every-call')",
      'moveAll();',
      'call.ok',
      "faults.has('late')",
      'later()',
    ]);
  });

  it('reads a fault set got from a call as a switch too', () => {
    const code = "function f(state) { if (state.options.faults().has('x') && state.active) stop(); }";
    expect(ignoredIn(code)).toEqual(["state.options.faults().has('x')", 'state.active', 'stop();']);
  });

  it('keeps a negated switch and what is or-ed with it: both decide without the fault', () => {
    const code = "function f(faults, a) { if (!faults.has('x') && a) go(); if (faults.has('y') || a) stop(); }";
    expect(ignoredIn(code)).toEqual(["faults.has('x')", "faults.has('y')"]);
  });

  it('leaves out the statements after a return taken unless a fault is on', () => {
    const code = [
      'function metadataOf(faults, call) {',
      '  const kept = call.metadata;',
      "  if (!faults.has('empty-dropped')) return kept;",
      '  const compact = strip(kept);',
      '  return compact;',
      '}',
    ].join('\n');
    expect(ignoredIn(code)).toEqual(["faults.has('empty-dropped')", 'const compact = strip(kept);', 'return compact;']);
  });

  it('leaves out what follows a continue or a throw taken unless a fault is on, and not a plain guard', () => {
    const code = [
      'function verify(faults, providers, header) {',
      '  for (const provider of providers) {',
      "    if (!faults.has('kept-alongside')) continue;",
      '    tryProvider(provider);',
      '  }',
      "  if (header.alg === 'none') {",
      "    if (!faults.has('alg-none')) throw new Error('refused');",
      '    return decodeUnsigned(header);',
      '  }',
      '  if (!header.kid) return undefined;',
      '  return verified(header);',
      '}',
    ].join('\n');
    expect(ignoredIn(code)).toEqual([
      "faults.has('kept-alongside')",
      'tryProvider(provider);',
      "faults.has('alg-none')",
      'return decodeUnsigned(header);',
    ]);
  });

  it("leaves out a declaration documented as a fault's own, and only that one", () => {
    const code = [
      '/** Fault nested-flattened: nested objects turned into dotted keys. */',
      'function flattened(value) { return value + 1; }',
      '/** The call as placed. */',
      'function placed(value) { return value * 2; }',
      'class Calls {',
      '  /** Fault started-at: when each call started. */',
      '  startedAt = new Map();',
      '  placed = new Map();',
      '}',
      '/**',
      ' * Faults case-insensitive and prefix-compared: a token the exact lookup missed,',
      ' * found by a looser comparison.',
      ' */',
      'function nearMiss(secret) { return secret.toLowerCase(); }',
      '/**',
      ' * The exact lookup.',
      ' */',
      'function exact(secret) { return secret; }',
    ].join('\n');
    // Babel prints a node with the comments around it.
    expect(ignoredIn(code)).toEqual([
      expect.stringContaining('function flattened(value)'),
      expect.stringContaining('startedAt = new Map();'),
      expect.stringContaining('function nearMiss(secret)'),
    ]);
  });

  // Stryker places an operand's mutants before it visits the operand's neighbour, which then reads
  // `stryMutAct_…() ? mutant : original`: the ignorer looks under those switches.
  it("leaves out the same code when Stryker's instrumenter has placed mutants beside it", async () => {
    const code = [
      'function recordFailure(faults, state) {',
      "  if (faults.has('every-24') && state.failed >= 24 && state.name === 'active') stop();",
      "  if (!faults.has('kept')) return;",
      '  state.failed += 1;',
      '}',
    ].join('\n');
    const mutants = await mutantsOf(code);
    const run = mutants.filter((mutant) => mutant.runs).map((mutant) => `${mutant.original} → ${mutant.replacement}`);
    // What runs: the function's block, the whole condition, its two `&&`s (each `||` runs a fault's
    // code without the fault) and the negated switch's return.
    expect(run).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^faults\.has\('every-24'\) && state\.failed >= 24 && state\.name === 'active' → true$/),
        expect.stringMatching(/\|\| state\.name === 'active'$/),
        expect.stringMatching(/^faults\.has\('every-24'\) && state\.failed >= 24 → faults\.has\('every-24'\) \|\| /),
      ]),
    );
    for (const left of ['state.failed >= 24', "state.name === 'active'", "'active'", 'stop()', 'state.failed += 1'])
      expect(
        run.filter((mutant) => mutant.startsWith(`${left} →`)),
        left,
      ).toEqual([]);
    expect(mutants.filter((mutant) => !mutant.runs).length).toBeGreaterThanOrEqual(8);
  });
});
