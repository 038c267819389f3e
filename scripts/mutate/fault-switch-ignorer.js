// @ts-check
/**
 * A Stryker ignorer: the reference's fault switches (`faults.has('…')`) and the code only
 * they reach are not mutated. A mutant run switches no fault on, so a mutant there changes
 * nothing a check could see (equivalent), and would cost a whole run of its module to say so.
 * Plain JavaScript: Stryker loads its plugins in worker processes that have no TypeScript loader.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const REASON = 'a fault switch (reference/faults.ts), off in a mutant run: equivalent';

/**
 * `faults.has(…)` or `<anything>.faults.has(…)`.
 * @param {any} path a Babel NodePath
 */
function isFaultSwitch(path) {
  if (!path?.isCallExpression()) return false;
  const callee = path.get('callee');
  if (!callee.isMemberExpression() || !callee.get('property').isIdentifier({ name: 'has' })) return false;
  const owner = callee.get('object');
  return (
    owner.isIdentifier({ name: 'faults' }) ||
    (owner.isMemberExpression() && owner.get('property').isIdentifier({ name: 'faults' }))
  );
}

/** @param {any} path */
function isFaultOnly(path) {
  const parent = path.parentPath;
  const branch = parent?.isIfStatement() || parent?.isConditionalExpression();
  return Boolean(branch && path.key === 'consequent' && isFaultSwitch(parent.get('test')));
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'fault-switches', {
    /** @param {any} path */
    shouldIgnore(path) {
      return isFaultSwitch(path) || isFaultOnly(path) ? REASON : undefined;
    },
  }),
];
