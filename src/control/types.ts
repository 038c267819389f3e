/** Shapes of the control interface (../shared/contracts/control-interface.md). */

export const ALL_SCOPES = ['voice:read', 'voice:write', 'mailer:read', 'mailer:write', 'webhooks:write'] as const;
export type Scope = (typeof ALL_SCOPES)[number];

export const EVENT_TYPES = [
  'voice.call.queued',
  'voice.call.started',
  'voice.call.completed',
  'voice.call.failed',
  'mailer.email.sent',
  'mailer.reply.received',
  'mailer.campaign.completed',
  'workspace.plan.upgraded',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface Capabilities {
  contract: string;
  max_time_scale: number;
  delivery_timeout_ms: number;
  environment: 'staging' | 'production';
}

export interface WorkspaceOptions {
  licensedScopes?: readonly Scope[];
  timeScale?: number;
  callProgress?: 'auto' | 'manual';
}

export interface CreatedWorkspace {
  workspaceId: string;
  agentIds: string[];
}

export interface CreatedToken {
  tokenId: string;
  token: string;
  /** The label as the creation's answer names it; absent when it names none. */
  label?: string;
  scopes: string[];
}

export interface CreatedEndpoint {
  endpointId: string;
  secret: string;
  state: string;
  /**
   * The URL it is registered with, when an adapter hands out one registered by hand instead
   * of the one asked for; the receiver then listens on that URL's path.
   */
  url?: string;
}

/** POST /workspaces/{ws}/calls/{call_id}/progress. */
export type CallProgress =
  | { state: 'started' }
  | { state: 'failed' }
  | { state: 'completed'; outcome: string; durationSeconds: number };

export interface EndpointStatus {
  endpointId: string;
  url: string;
  events: string[];
  state: 'active' | 'disabled' | string;
  flagged: boolean;
}

/** What the run created, so it can be removed at the end whatever happens. */
export type Resource =
  | { kind: 'workspace'; workspaceId: string }
  | { kind: 'token'; workspaceId: string; tokenId: string }
  | { kind: 'endpoint'; workspaceId: string; endpointId: string };
