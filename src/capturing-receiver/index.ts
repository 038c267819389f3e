export { CapturingReceiver, DEFAULT_KEPT_DELIVERIES } from './capturing-receiver.js';
export type { ReceiverOptions, CreateEndpointOptions } from './capturing-receiver.js';
export { ReceiverEndpoint } from './endpoint.js';
export type { WaitForOptions } from './endpoint.js';
export { validateEnvelope } from './envelope.js';
export type { EnvelopeVerdict } from './envelope.js';
export type {
  AnswerMatcher,
  AnswerRule,
  AnswerState,
  CapturedDelivery,
  DeliveryVerdicts,
  EndpointStats,
  ProgrammedAnswer,
  ReceiverStats,
  StrayRequest,
} from './types.js';
export { formatDeliveryLine } from './log-line.js';
export { refusingUrl } from './refused.js';
