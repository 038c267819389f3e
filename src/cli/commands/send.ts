/** `svc-harness send <event-type>`: one signed event to a receiver, and its answer (src/send/send-event.ts). */
import { parseReceiverSettings, receiverSettingsHelp } from '../../config/receiver-settings.js';
import { readSettingSources } from '../../config/sources.js';
import { EXIT, RunAbort } from '../../errors.js';
import { EVENT_TYPES } from '../../receiver-cert/fixtures.js';
import { acknowledged } from '../../receiver-cert/sender.js';
import {
  describeOutcome,
  parseEventType,
  parseReplayId,
  parseTimestampOffset,
  sendEvent,
  type SendRequest,
} from '../../send/send-event.js';
import { writeLine } from '../../text/console.js';
import type { Command } from '../command.js';

const SETTINGS = [
  'TARGET_RECEIVER_URL',
  'TARGET_RECEIVER_SECRET',
  'TARGET_RECEIVER_SECRET_FILE',
  'TARGET_RECEIVER_TIMEOUT_MS',
  'TARGET_RECEIVER_INSECURE_TLS',
];

export const sendCommand: Command = {
  words: ['send'],
  summary: 'Send one signed event (or a replay) to a webhook receiver, and print its answer.',
  description:
    'Signed as the service signs deliveries, with the secret of TARGET_RECEIVER_SECRET(_FILE) or --secret-file; the secret is never printed.',
  positionals: { usage: '<event-type>', description: `one of ${EVENT_TYPES.join(', ')}`, min: 1, max: 1 },
  options: {
    to: { type: 'string', value: '<url>', description: "the receiver's URL; wins over TARGET_RECEIVER_URL" },
    'secret-file': {
      type: 'string',
      value: '<path>',
      description: 'a file holding the signing secret; wins over TARGET_RECEIVER_SECRET(_FILE)',
    },
    replay: {
      type: 'string',
      value: '<evt_id>',
      description: 'deliver this event id again, with a fresh signature and timestamp',
    },
    'timestamp-offset': {
      type: 'string',
      value: '<seconds>',
      description: 'move the timestamp header (e.g. --timestamp-offset=-301: 301 s in the past)',
    },
  },
  settings: () => receiverSettingsHelp().filter((setting) => SETTINGS.includes(setting.name)),
  exitCodes: {
    0: 'the receiver answered 2xx',
    1: 'it answered another status',
    2: 'bad usage or settings, or no answer (unreachable, time-out)',
  },
  async run({ values, positionals }) {
    const request: SendRequest = {
      eventType: parseEventType(positionals[0]!),
      replayId: typeof values.replay === 'string' ? parseReplayId(values.replay) : undefined,
      timestampOffsetSeconds:
        typeof values['timestamp-offset'] === 'string' ? parseTimestampOffset(values['timestamp-offset']) : 0,
    };
    const sources = readSettingSources();
    if (typeof values.to === 'string') sources.TARGET_RECEIVER_URL = values.to;
    if (typeof values['secret-file'] === 'string') {
      delete sources.TARGET_RECEIVER_SECRET;
      sources.TARGET_RECEIVER_SECRET_FILE = values['secret-file'];
    }
    const settings = parseReceiverSettings(sources);
    const outcome = await sendEvent(settings, request);
    const lines = describeOutcome(settings, request, outcome);
    for (const line of lines) writeLine(process.stdout, line);
    if (outcome.exchange.status === null) {
      const tlsHint =
        /certificate|self.signed|CERT_/i.test(outcome.exchange.errorMessage ?? '') && !settings.insecureTls
          ? '; to accept a self-signed certificate, set TARGET_RECEIVER_INSECURE_TLS=true'
          : '';
      throw new RunAbort(`no answer from ${settings.url}${tlsHint}`);
    }
    return acknowledged(outcome.exchange) ? EXIT.passed : EXIT.mustFailed;
  },
};
