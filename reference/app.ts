import { Authenticator, sessionVerifierFor } from './auth/authenticate.js';
import { NodePool } from './auth/nodes.js';
import type { Environment } from './auth/tokens.js';
import { CallService } from './calls/lifecycle.js';
import type { Clock } from './clock.js';
import { Store } from './store.js';
import { Dispatcher, type AttemptRecord } from './webhooks/dispatcher.js';
import { EndpointRegistry } from './webhooks/endpoints.js';
import type { DeliverySender } from './webhooks/transport.js';
import type { Personality } from './personality.js';
import { Outbound } from './outbound.js';

// The service's parts wired together, independent of HTTP.

const ANYWHERE = new Outbound();

export interface AppConfig {
  environment: Environment;
  nodes: number;
  propagationMs: number;
  deliveryTimeoutMs: number;
  maxTimeScale: number;
  clock: Clock;
  sender: DeliverySender;
  onAttempt?: (record: AttemptRecord) => void;
  /** The choices made where the spec leaves them open. */
  personality: Personality;
  /** Where it may open connections (JWKS fetches; the sender applies it to deliveries); default anywhere. */
  outbound?: Outbound;
}

export class App {
  readonly store = new Store();
  readonly nodes: NodePool;
  readonly auth: Authenticator;
  readonly endpoints: EndpointRegistry;
  readonly dispatcher: Dispatcher;
  readonly calls: CallService;
  /** Set once the server listens: http://127.0.0.1:PORT. */
  publicBaseUrl = '';
  /** Set once the internal listener listens (index.ts): where fault transcript-url-other-port points transcripts. */
  internalBaseUrl = '';

  get personality(): Personality {
    return this.config.personality;
  }

  get outbound(): Outbound {
    return this.config.outbound ?? ANYWHERE;
  }

  constructor(readonly config: AppConfig) {
    this.nodes = new NodePool(config.nodes, this.store, config.clock, config.propagationMs);
    this.auth = new Authenticator(
      this.store,
      this.nodes,
      sessionVerifierFor(this.store, config.personality),
      config.clock,
    );
    this.endpoints = new EndpointRegistry(config.clock);
    this.dispatcher = new Dispatcher({
      clock: config.clock,
      sender: config.sender,
      endpoints: this.endpoints,
      deliveryTimeoutMs: config.deliveryTimeoutMs,
      onAttempt: config.onAttempt,
      newId: config.personality.newId,
      retryJitter: config.personality.retryJitter,
    });
    this.calls = new CallService(
      this.store,
      this.dispatcher,
      config.clock,
      () => this.publicBaseUrl,
      config.personality,
      () => this.internalBaseUrl,
    );
  }

  deleteWorkspace(workspaceId: string): boolean {
    const workspace = this.store.deleteWorkspace(workspaceId);
    if (!workspace) return false;
    this.endpoints.deleteWorkspace(workspaceId);
    this.dispatcher.events.deleteWorkspace(workspaceId);
    return true;
  }

  async close(): Promise<void> {
    for (const workspace of this.store.workspaces.values()) {
      for (const call of workspace.calls.values()) for (const timer of call.timers) timer.cancel();
    }
    await this.dispatcher.close();
  }
}
