import type { TimerHandle } from '../clock.js';

// What a placed call is: the record a workspace keeps (calls/records.ts) and the lifecycle
// moves along (calls/lifecycle.ts).

export type CallState = 'queued' | 'started' | 'completed' | 'failed';

export interface Call {
  id: string;
  workspaceId: string;
  agentId: string;
  to: string;
  metadata: Record<string, unknown>;
  state: CallState;
  outcome: string | null;
  durationSeconds: number | null;
  createdAt: number;
  /** Fault transcript-gone-after-completion: when the call completed or failed. */
  finishedAt?: number;
  /** Pending automatic progress steps (call_progress auto). */
  timers: TimerHandle[];
}
