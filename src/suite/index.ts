export { certifySuite, check, onSuiteEnd } from './check.js';
export type { CheckContext } from './context.js';
export * from './assertions.js';
export { CheckFailure, CheckSkip } from './outcome.js';
export type { TestWorkspace } from './workspace.js';
export type { HookedEndpoint } from './webhooks.js';
