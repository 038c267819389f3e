// @ts-check
/**
 * A Stryker ignorer: the reference's fault switches (`faults.has('…')`) and the code only
 * they reach are not mutated. A mutant run switches no fault on, so a mutant there changes
 * nothing a check could see (equivalent), and would cost a whole run of its module to say so.
 * "Only they reach" is read from the code's shape, never from what a run happens to cover:
 * - the switch itself, and what is `&&`-ed with it (false with the fault off, whatever it is);
 * - the branch an `if` or `?:` takes when such a conjunction holds;
 * - the statements after `if (!faults.has('…')) return …;` (or `continue;`, or `throw …;`) in the same block;
 * - a declaration whose doc comment names it a fault's own (`/** Fault <name>: … *\/`), the
 *   house convention for helpers and state only one fault uses.
 * The `&&` itself stays mutated: `a && faults.has(…)` → `a || faults.has(…)` runs the fault's
 * code without the fault, which a check may well see.
 * Plain JavaScript: Stryker loads its plugins in worker processes that have no TypeScript loader.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const REASON = 'a fault switch (reference/faults.ts), off in a mutant run: equivalent';
/** `/** Fault <name>: …`, or `Faults <name> and <name>: …`, on the comment's first line or the next. */
const FAULT_DOC_COMMENT = /^\*\s*(?:\*\s*)?Faults? [a-z0-9-]+(?: and [a-z0-9-]+)?:/;

/**
 * `faults.has(…)`, `<anything>.faults.has(…)` or `<anything>.faults().has(…)`.
 * @param {any} path a Babel NodePath
 */
function isFaultSwitch(path) {
  if (!path?.isCallExpression()) return false;
  const callee = path.get('callee');
  if (!callee.isMemberExpression() || !callee.get('property').isIdentifier({ name: 'has' })) return false;
  const owner = callee.get('object');
  const namedFaults = (/** @type {any} */ node) =>
    node.isIdentifier({ name: 'faults' }) ||
    (node.isMemberExpression() && node.get('property').isIdentifier({ name: 'faults' }));
  return namedFaults(owner) || (owner.isCallExpression() && namedFaults(owner.get('callee')));
}

/**
 * @param {any} path
 * @param {string} prefix
 */
function isStrykerCall(path, prefix) {
  return Boolean(
    path?.isCallExpression() && path.get('callee').isIdentifier() && path.node.callee.name.startsWith(prefix),
  );
}

/**
 * The code as written under the mutant switches Stryker has already placed on it. Stryker places
 * an expression's mutants when it leaves that expression, before it visits the next sibling, so
 * an operand's `&&`-ed neighbour or an `if`'s test may already read
 * `stryMutAct_…("7") ? mutant : (stryCov_…("7"), original)` when this ignorer looks at it.
 * @param {any} path
 * @returns {any}
 */
function asWritten(path) {
  let current = path;
  for (;;) {
    if (current?.isParenthesizedExpression()) current = current.get('expression');
    else if (current?.isConditionalExpression() && isStrykerCall(current.get('test'), 'stryMutAct_'))
      current = current.get('alternate');
    else if (current?.isSequenceExpression() && isStrykerCall(current.get('expressions.0'), 'stryCov_'))
      current = current.get(`expressions.${current.node.expressions.length - 1}`);
    else return current;
  }
}

/**
 * A fault switch, or an `&&` chain with one among its conjuncts: false whenever the fault is off.
 * @param {any} written
 * @returns {boolean}
 */
function holdsOnlyUnderFault(written) {
  const path = asWritten(written);
  if (isFaultSwitch(path)) return true;
  return (
    Boolean(path?.isLogicalExpression({ operator: '&&' })) &&
    (holdsOnlyUnderFault(path.get('left')) || holdsOnlyUnderFault(path.get('right')))
  );
}

/** @param {any} path an operand `&&`-ed with a fault switch */
function isConjunctOfFaultSwitch(path) {
  const parent = path.parentPath;
  if (!parent?.isLogicalExpression({ operator: '&&' })) return false;
  const other = parent.get(path.key === 'left' ? 'right' : 'left');
  return holdsOnlyUnderFault(other);
}

/** @param {any} path */
function isFaultOnlyBranch(path) {
  const parent = path.parentPath;
  const branch = parent?.isIfStatement() || parent?.isConditionalExpression();
  return Boolean(branch && path.key === 'consequent' && holdsOnlyUnderFault(parent.get('test')));
}

/**
 * `if (!faults.has('…')) return …;` (or `continue;`, or `throw …;`), with no else: what follows it
 * in the block runs only under the fault.
 * @param {any} statement
 */
function returnsUnlessFault(statement) {
  if (!statement.isIfStatement() || statement.node.alternate) return false;
  const test = asWritten(statement.get('test'));
  if (!test.isUnaryExpression({ operator: '!' }) || !isFaultSwitch(asWritten(test.get('argument')))) return false;
  const consequent = statement.get('consequent');
  const leaves = (/** @type {any} */ path) =>
    path.isReturnStatement() || path.isContinueStatement() || path.isThrowStatement();
  return (
    leaves(consequent) ||
    (consequent.isBlockStatement() && consequent.node.body.length === 1 && leaves(consequent.get('body.0')))
  );
}

/** @param {any} path */
function followsReturnUnlessFault(path) {
  if (path.listKey !== 'body' || typeof path.key !== 'number') return false;
  for (let index = 0; index < path.key; index += 1) if (returnsUnlessFault(path.getSibling(index))) return true;
  return false;
}

/** @param {any} path */
function isDocumentedAsFaults(path) {
  const declaration =
    path.isFunctionDeclaration() ||
    path.isVariableDeclaration() ||
    path.isClassProperty() ||
    path.isClassPrivateProperty() ||
    path.isClassMethod() ||
    path.isClassPrivateMethod();
  if (!declaration) return false;
  const holder = path.parentPath?.isExportNamedDeclaration() ? path.parentPath : path;
  const comments = holder.node.leadingComments ?? [];
  const last = comments[comments.length - 1];
  return last?.type === 'CommentBlock' && FAULT_DOC_COMMENT.test(last.value.trim());
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'fault-switches', {
    /** @param {any} path */
    shouldIgnore(path) {
      const faultOnly =
        isFaultSwitch(path) ||
        isConjunctOfFaultSwitch(path) ||
        isFaultOnlyBranch(path) ||
        followsReturnUnlessFault(path) ||
        isDocumentedAsFaults(path);
      return faultOnly ? REASON : undefined;
    },
  }),
];
