import { durationSeconds } from '../../../load/lib/duration.js';
import { loadSettingsHelp } from '../../config/load-settings.js';
import { settingsHelp } from '../../config/settings.js';
import { UsageError, type Command } from '../command.js';

const HOST_SETTINGS = [
  'SVC_BASE_URL',
  'SVC_CONTROL_URL',
  'SVC_CONTROL_TOKEN',
  'RECEIVER_HOST',
  'RECEIVER_PORT',
  'RECEIVER_PUBLIC_URL',
];
const HOST_LOAD_SETTINGS = ['LOAD_ENDPOINTS', 'LOAD_RECEIVER_WORKERS'];

export const loadFanoutHostCommand: Command = {
  words: ['load', 'fanout-host'],
  summary: "Host the fan-out's receivers for runners elsewhere (a k6-operator TestRun), recording what arrives.",
  description:
    "Starts the capturing receivers where the service reaches them, registers the fan-out's webhook endpoints through the control interface, writes the Secret of load/k8s/testrun-fanout.yaml to a file only you can read, and records every arrival until SIGINT, SIGTERM or --for. Then: svc-harness load merge fanout <the runners' samples…> <the arrivals file> (load/README.md, Distributed runs).",
  options: {
    arrivals: {
      type: 'string',
      value: '<file>',
      description: 'where the arrivals go (default fanout.arrivals.ndjson)',
    },
    'secret-out': {
      type: 'string',
      value: '<file>',
      description: 'where the Secret manifest goes (default svc-load-fanout.secret.yaml)',
    },
    'secret-name': {
      type: 'string',
      value: '<name>',
      description: "the Secret's name (default svc-load-fanout, as the TestRun expects)",
    },
    for: {
      type: 'string',
      value: '<duration>',
      description:
        "stop by itself after this long (e.g. 8m for testrun-fanout.yaml: its 5 m, the runners' start-up and the drain)",
    },
    'allow-production': { type: 'boolean', description: 'allow a production target (refused otherwise)' },
  },
  settings: () => [
    ...settingsHelp().filter((setting) => HOST_SETTINGS.includes(setting.name)),
    ...loadSettingsHelp().filter((setting) => HOST_LOAD_SETTINGS.includes(setting.name)),
  ],
  exitCodes: {
    0: 'the arrivals were recorded and the workspace removed',
    2: 'the host could not start (settings missing, the control interface refused)',
  },
  async run({ values }) {
    let forMs: number | undefined;
    if (typeof values.for === 'string') {
      try {
        forMs = 1000 * durationSeconds(values.for);
      } catch (error) {
        throw new UsageError(`--for: ${(error as Error).message}`);
      }
    }
    const { hostFanout } = await import('../../load/distributed/fanout-host.js');
    await hostFanout({
      arrivalsPath: typeof values.arrivals === 'string' ? values.arrivals : 'fanout.arrivals.ndjson',
      secretPath: typeof values['secret-out'] === 'string' ? values['secret-out'] : 'svc-load-fanout.secret.yaml',
      secretName: typeof values['secret-name'] === 'string' ? values['secret-name'] : 'svc-load-fanout',
      allowProduction: values['allow-production'] === true,
      ...(forMs !== undefined ? { forMs } : {}),
    });
    return 0;
  },
};
