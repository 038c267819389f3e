// @ts-check
// Which Node runs the harness: engines in package.json says ^22.22.0 || >=24, and npm only
// warns about it. This module imports nothing, so that an older Node reaches it and says so,
// instead of failing on an import it lacks.

/** What package.json's engines field allows, as users read it. */
export const NODE_NEEDED = '22.22 or later in the 22 line, or 24 and later';

/**
 * Why `version` (process.versions.node) cannot run the harness, or undefined when it can.
 * @param {string} version
 * @returns {string | undefined}
 */
export function unsupportedNode(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major >= 24 || (major === 22 && minor >= 22)) return undefined;
  return `svc-harness: Node ${version} found; Node ${NODE_NEEDED} is needed`;
}
