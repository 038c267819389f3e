import { settingsHelp } from '../../config/settings.js';
import type { Command } from '../command.js';

export const certifyCommand: Command = {
  words: ['certify'],
  summary: 'Certify a service against the interface spec.',
  description:
    'The target is SVC_BASE_URL (or SVC_IMAGE); with neither, the bundled reference implementation. Reports\n' +
    '(report.json, junit.xml, report.md, report.html) go to CERTIFY_REPORT_DIR.',
  options: { 'allow-production': { type: 'boolean', description: 'allow a production (svc_live_) target; same as CERTIFY_ALLOW_PRODUCTION=true' } },
  settings: () => settingsHelp().filter((setting) => setting.name !== 'RECEIVER_SECRET'),
  exitCodes: {
    0: 'no must check failed, and the clean-up removed everything the run created',
    1: 'a must check failed',
    2: 'the run could not happen (settings, target unreachable); one line on stderr',
    3: 'clean-up incomplete: no must check failed, but resources are left on the target (the reports list each, with the control call that removes it)',
    130: 'interrupted',
  },
  notes: ['report.json conforms to schemas/report.schema.json; the settings to schemas/settings.schema.json.'],
  async run({ values }) {
    const { certify } = await import('../../runner/certify.js');
    return certify({ allowProduction: values['allow-production'] === true });
  },
};
