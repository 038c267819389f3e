// The eight event types of the spec.
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

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}
