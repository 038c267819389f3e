import type { FaultName } from '../faults.js';
import type { StoredEvent } from './envelope.js';

// Events kept for replay, bounded per workspace so that a load run placing calls for
// minutes does not grow memory without limit. Two generations per workspace: when the
// current one is full it becomes the previous one and the old previous is forgotten
// whole (cheaper than deleting the oldest entry on every insert).

export const EVENTS_PER_GENERATION = 10_000;

interface Generations {
  current: Map<string, StoredEvent>;
  previous: Map<string, StoredEvent>;
}

export class EventStore {
  private readonly byWorkspace = new Map<string, Generations>();

  add(event: StoredEvent): void {
    let generations = this.byWorkspace.get(event.workspaceId);
    if (!generations)
      this.byWorkspace.set(event.workspaceId, (generations = { current: new Map(), previous: new Map() }));
    // Fault event-store-keeps-two: the generations turn over on every event (a StrykerJS mutant).
    // Stryker disable next-line BlockStatement: no stated rule: a store that never turns over only grows memory, which no check sees from outside
    // Stryker disable next-line LogicalOperator: equivalent: it drops the fault switch, which a mutant run leaves off
    if (generations.current.size >= EVENTS_PER_GENERATION || event.faults.has('event-store-keeps-two')) {
      generations.previous = generations.current;
      generations.current = new Map();
    }
    generations.current.set(event.id, event);
  }

  /** Faults replay-any-workspace and replay-cross-workspace: an event of any workspace carrying `fault`, found by its id alone. */
  getAnywhere(eventId: string, fault: FaultName = 'replay-any-workspace'): StoredEvent | undefined {
    for (const generations of this.byWorkspace.values()) {
      const event = generations.current.get(eventId) ?? generations.previous.get(eventId);
      if (event?.faults.has(fault)) return event;
    }
    return undefined;
  }

  /** Fault replay-data-latest-of-type: the workspace's latest event of `type`. */
  latestOfType(workspaceId: string, type: string): StoredEvent | undefined {
    const generations = this.byWorkspace.get(workspaceId);
    if (!generations) return undefined;
    for (const generation of [generations.current, generations.previous]) {
      const events = [...generation.values()];
      for (let i = events.length - 1; i >= 0; i--) if (events[i]!.type === type) return events[i];
    }
    return undefined;
  }

  /** Fault replay-call-event-latest-of-call: the workspace's latest event of the call `callId`. */
  latestOfCall(workspaceId: string, callId: string): StoredEvent | undefined {
    const generations = this.byWorkspace.get(workspaceId);
    if (!generations) return undefined;
    for (const generation of [generations.current, generations.previous]) {
      const events = [...generation.values()];
      for (let i = events.length - 1; i >= 0; i--)
        if (events[i]!.type.startsWith('voice.call.') && events[i]!.data['call_id'] === callId) return events[i];
    }
    return undefined;
  }

  get(workspaceId: string, eventId: string): StoredEvent | undefined {
    const generations = this.byWorkspace.get(workspaceId);
    return generations?.current.get(eventId) ?? generations?.previous.get(eventId);
  }

  // Stryker disable all: no stated rule: a deleted workspace's events kept, memory only: nothing reads a deleted workspace's events again
  deleteWorkspace(workspaceId: string): void {
    this.byWorkspace.delete(workspaceId);
  }
  // Stryker restore all
}
