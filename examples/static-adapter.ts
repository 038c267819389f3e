/**
 * An example control adapter (CERTIFY_CONTROL_ADAPTER=examples/static-adapter.ts): for a
 * staging service without the control interface, it serves resources provisioned by hand
 * in the service's dashboard, listed in a JSON file (STATIC_CONTROL_FILE, default
 * static-control.json; see examples/static-control.example.json):
 *
 *   { "environment": "staging",
 *     "workspaces": [ { "workspace_id": "ws_…", "agent_ids": ["agt_…"],
 *       "tokens": [ { "token_id": "…", "token": "svc_test_…", "scopes": ["voice:read", …] } ],
 *       "endpoints": [ { "endpoint_id": "…", "url": "https://hooks.ci.example.test/hooks/static-1",
 *                        "events": ["*"], "secret": "…" } ] } ] }
 *
 * Each workspace, token and endpoint is handed out once, as a creation would make a new
 * one: a check that asked for a second one would otherwise judge the service on a resource
 * it did not make. Endpoints must point at the harness's receiver (RECEIVER_PUBLIC_URL plus
 * a path of your choice), which then listens on that path; one is handed out only for a URL
 * of that origin, never in place of another URL a check asks the service to register. Whatever the file cannot give
 * (a scaled workspace, a revocation, a suspension, an event fired on demand, …) throws
 * ControlUnsupported, and the checks that need it are skipped with that reason. Nothing is
 * deleted: the resources stay as provisioned.
 */
import { readFileSync } from 'node:fs';
import { ControlUnsupported, type ControlAdapter } from '../src/control/adapter.js';
import {
  ALL_SCOPES,
  type Capabilities,
  type CreatedEndpoint,
  type CreatedToken,
  type CreatedWorkspace,
  type WorkspaceOptions,
} from '../src/control/types.js';

interface StaticToken {
  token_id: string;
  token: string;
  scopes: string[];
}
interface StaticEndpoint {
  endpoint_id: string;
  url: string;
  events: string[];
  secret: string;
}
interface StaticWorkspace {
  workspace_id: string;
  agent_ids: string[];
  tokens?: StaticToken[];
  endpoints?: StaticEndpoint[];
}
interface StaticFile {
  environment?: 'staging' | 'production';
  workspaces: StaticWorkspace[];
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

export default function createStaticAdapter(
  path = process.env.STATIC_CONTROL_FILE ?? 'static-control.json',
): ControlAdapter {
  const file = JSON.parse(readFileSync(path, 'utf8')) as StaticFile;
  if (!Array.isArray(file.workspaces)) throw new Error(`${path}: "workspaces" must be a list`);
  const handedOut = new Set<string>();
  const take = <T>(key: string, value: T): T => (handedOut.add(key), value);
  const workspace = (id: string) => file.workspaces.find((candidate) => candidate.workspace_id === id);
  const cannot = (what: string) => async (): Promise<never> => {
    throw new ControlUnsupported(`the static adapter cannot ${what} (${path} lists hand-made resources only)`);
  };

  return {
    async capabilities(): Promise<Capabilities> {
      // Only real-time workspaces can be made by hand; the spec's receiver time-out.
      return {
        contract: '1',
        max_time_scale: 1,
        delivery_timeout_ms: 30_000,
        environment: file.environment ?? 'staging',
      };
    },

    async createWorkspace(options: WorkspaceOptions = {}): Promise<CreatedWorkspace> {
      if ((options.timeScale ?? 1) > 1)
        throw new ControlUnsupported(`the static adapter cannot make a workspace with time_scale ${options.timeScale}`);
      if (options.callProgress === 'manual')
        throw new ControlUnsupported('the static adapter cannot make a workspace whose calls are moved by hand');
      if (options.licensedScopes && !sameSet(options.licensedScopes, ALL_SCOPES))
        throw new ControlUnsupported(
          `the static adapter cannot make a workspace licensed for ${options.licensedScopes.join(' ')} only`,
        );
      const free = file.workspaces.find((candidate) => !handedOut.has(candidate.workspace_id));
      if (!free)
        throw new ControlUnsupported(
          `the static adapter has no unused workspace left (${file.workspaces.length} in ${path})`,
        );
      return take(free.workspace_id, { workspaceId: free.workspace_id, agentIds: free.agent_ids });
    },

    async deleteWorkspace(): Promise<void> {
      // Not ours to delete: it stays as provisioned.
    },

    async createToken(workspaceId: string, _label: string, scopes?: readonly string[]): Promise<CreatedToken> {
      const wanted = scopes ?? ALL_SCOPES;
      const token = workspace(workspaceId)?.tokens?.find(
        (candidate) => !handedOut.has(candidate.token_id) && sameSet(candidate.scopes, wanted),
      );
      if (!token)
        throw new ControlUnsupported(
          `the static adapter has no unused token with scopes ${wanted.join(' ')} in ${workspaceId}`,
        );
      // Provisioned by hand with a label of its own: the label asked for is not claimed.
      return take(token.token_id, { tokenId: token.token_id, token: token.token, scopes: token.scopes });
    },

    async createEndpoint(
      workspaceId: string,
      url: string,
      events: readonly string[] = ['*'],
    ): Promise<CreatedEndpoint> {
      // Only a request for an endpoint at the receiver (same origin) may get one registered by
      // hand: a check that registers another URL (http://, localhost) judges the service's answer.
      const origin = new URL(url).origin;
      const endpoint = workspace(workspaceId)?.endpoints?.find(
        (candidate) =>
          !handedOut.has(candidate.endpoint_id) &&
          new URL(candidate.url).origin === origin &&
          sameSet(candidate.events, events),
      );
      if (!endpoint)
        throw new ControlUnsupported(
          `the static adapter has no unused endpoint at ${origin} for events ${events.join(' ')} in ${workspaceId}`,
        );
      return take(endpoint.endpoint_id, {
        endpointId: endpoint.endpoint_id,
        secret: endpoint.secret,
        state: 'active',
        url: endpoint.url,
      });
    },

    revokeToken: cannot('revoke a token'),
    suspend: cannot('suspend a workspace'),
    reinstate: cannot('reinstate a workspace'),
    setIdentityProvider: cannot("set a workspace's identity provider"),
    addMember: cannot('add a member'),
    getEndpoint: cannot("read an endpoint's state"),
    enableEndpoint: cannot('re-enable an endpoint'),
    deleteEndpoint: cannot('delete an endpoint'),
    fireEvent: cannot('fire an event'),
    replay: cannot('replay a delivery'),
    progressCall: cannot('move a call'),
    async close(): Promise<void> {},
  };
}
