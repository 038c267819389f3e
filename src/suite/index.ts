export { certifySuite, check } from './check.js';
export { onSuiteEnd } from './suite-end.js';
export { nextEndpointName, type CheckContext } from './context.js';
export * from './assertions.js';
export { CheckFailure, CheckSkip } from '../errors.js';
export { doneOrRefused, type TestWorkspace } from './workspace.js';
export type { HookedEndpoint } from './webhooks.js';
