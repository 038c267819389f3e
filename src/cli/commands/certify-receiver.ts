import { receiverSettingsHelp } from '../../config/receiver-settings.js';
import type { Command } from '../command.js';

export const certifyReceiverCommand: Command = {
  words: ['certify', 'receiver'],
  summary: 'Certify a webhook receiver: the harness plays the service.',
  description: 'Sends the receiver signed deliveries, good and bad, and judges its answers. Reports go to TARGET_RECEIVER_REPORT_DIR.',
  settings: receiverSettingsHelp,
  exitCodes: { 0: 'no must check failed', 1: 'a must check failed', 2: 'the run could not happen (settings, receiver unreachable)' },
  async run() {
    const { certifyReceiver } = await import('../../receiver-cert/runner.js');
    return certifyReceiver();
  },
};
