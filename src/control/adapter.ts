/**
 * The control operations of ../shared/contracts/control-interface.md as a typed interface,
 * one method per operation. The HTTP control client (./client.ts) is one implementation; a
 * team whose staging has no such HTTP API plugs in its own module with
 * CERTIFY_CONTROL_ADAPTER (README: "Control adapters"; examples/static-adapter.ts).
 *
 * An adapter that cannot do an operation throws ControlUnsupported: the check that needed it
 * is then skipped with that reason, never failed nor passed. A refusal by the service (the
 * contract's 4xx) is a ControlError with its status, as the HTTP client throws it.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ControlUnsupported, RunAbort, SettingsError } from '../errors.js';
import { registerSecret } from '../secrets/mask.js';
import type {
  CallProgress,
  Capabilities,
  CreatedEndpoint,
  CreatedToken,
  CreatedWorkspace,
  EndpointStatus,
  EventType,
  WorkspaceOptions,
} from './types.js';

export { ControlUnsupported };

export interface ControlAdapter {
  capabilities(): Promise<Capabilities>;
  createWorkspace(options?: WorkspaceOptions): Promise<CreatedWorkspace>;
  /**
   * Clean-up; an adapter that cannot delete workspaces may do nothing. Resolves `true` when the
   * workspace was deleted, `false` when the implementation does not delete workspaces, and
   * nothing when the adapter cannot tell (WS-DELETED-TOKENS then probes for itself).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: adapters written before the answer existed return Promise<void>, and still fit
  deleteWorkspace(workspaceId: string): Promise<boolean | void>;
  suspend(workspaceId: string): Promise<void>;
  reinstate(workspaceId: string): Promise<void>;
  /** `scopes` undefined: all the workspace's licensed scopes. */
  createToken(workspaceId: string, label: string, scopes?: readonly string[]): Promise<CreatedToken>;
  revokeToken(workspaceId: string, tokenId: string): Promise<void>;
  setIdentityProvider(
    workspaceId: string,
    provider: { issuer: string; jwksUri: string; audience: string },
  ): Promise<void>;
  /** Returns the member id. */
  addMember(workspaceId: string, subject: string, scopes: readonly string[]): Promise<string>;
  createEndpoint(workspaceId: string, url: string, events?: readonly string[]): Promise<CreatedEndpoint>;
  getEndpoint(workspaceId: string, endpointId: string): Promise<EndpointStatus>;
  enableEndpoint(workspaceId: string, endpointId: string): Promise<void>;
  deleteEndpoint(workspaceId: string, endpointId: string): Promise<void>;
  /** Returns the event id (evt_…); `data` undefined sends a body without a `data` member. */
  fireEvent(workspaceId: string, type: EventType | string, data: Record<string, unknown> | undefined): Promise<string>;
  replay(workspaceId: string, eventId: string, endpointId: string): Promise<void>;
  progressCall(workspaceId: string, callId: string, progress: CallProgress): Promise<void>;
  close(): Promise<void>;
}

/** Every method of the interface, checked on a loaded module so a missing one is found at start, not mid-run. */
export const CONTROL_OPERATIONS = [
  'capabilities',
  'createWorkspace',
  'deleteWorkspace',
  'suspend',
  'reinstate',
  'createToken',
  'revokeToken',
  'setIdentityProvider',
  'addMember',
  'createEndpoint',
  'getEndpoint',
  'enableEndpoint',
  'deleteEndpoint',
  'fireEvent',
  'replay',
  'progressCall',
  'close',
] as const satisfies ReadonlyArray<keyof ControlAdapter>;

/** Imports a module by URL. */
export type ModuleImporter = (url: string) => Promise<unknown>;

/**
 * Loads CERTIFY_CONTROL_ADAPTER: a module (TypeScript or JavaScript) whose default export is a
 * function returning the adapter (or a promise of it). Secrets it hands out (tokens, signing
 * secrets) are registered for masking before a check sees them. A module that does not load,
 * is no such function or makes an adapter that lacks an operation is a SettingsError; an
 * adapter that fails to start is a RunAbort.
 * @param importModule how to import it: by default as this module's own imports are (the
 *   suites' vitest transforms TypeScript, and shares with the adapter the modules both import)
 */
export async function loadControlAdapter(
  path: string,
  importModule: ModuleImporter = (url) => import(url),
): Promise<ControlAdapter> {
  const file = isAbsolute(path) ? path : resolve(path);
  const named = (why: string): string => `CERTIFY_CONTROL_ADAPTER ${path}: ${why}`;
  let module: { default?: unknown };
  try {
    module = (await importModule(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new SettingsError(named(firstLine(error)));
  }
  if (typeof module.default !== 'function')
    throw new SettingsError(named('its default export must be a function that returns the adapter'));
  let created: unknown;
  try {
    created = await (module.default as () => unknown)();
  } catch (error) {
    throw new RunAbort(named(firstLine(error)));
  }
  const missing = CONTROL_OPERATIONS.filter(
    (operation) => typeof (created as Record<string, unknown> | undefined)?.[operation] !== 'function',
  );
  if (missing.length > 0)
    throw new SettingsError(
      named(`the adapter lacks ${missing.join(', ')} (throw ControlUnsupported from what it cannot do)`),
    );
  return masking(created as ControlAdapter);
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** The adapter with every secret it returns registered for masking. */
function masking(adapter: ControlAdapter): ControlAdapter {
  const bound = Object.fromEntries(
    CONTROL_OPERATIONS.map((operation) => [operation, adapter[operation].bind(adapter)]),
  ) as unknown as ControlAdapter;
  return {
    ...bound,
    createToken: async (...args) => {
      const token = await adapter.createToken(...args);
      registerSecret(token.token);
      return token;
    },
    createEndpoint: async (...args) => {
      const endpoint = await adapter.createEndpoint(...args);
      registerSecret(endpoint.secret);
      return endpoint;
    },
  };
}
