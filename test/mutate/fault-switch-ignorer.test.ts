import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { strykerPlugins } from '../../scripts/mutate/fault-switch-ignorer.js';

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
    ].join('\n');
    // Babel prints a node with the comments around it.
    expect(ignoredIn(code)).toEqual([
      expect.stringContaining('function flattened(value)'),
      expect.stringContaining('startedAt = new Map();'),
    ]);
  });
});
