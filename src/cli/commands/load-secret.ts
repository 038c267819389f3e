import { settingsHelp } from '../../config/settings.js';
import { RunAbort } from '../../errors.js';
import { writeLine } from '../../text/console.js';
import type { Command } from '../command.js';

const TARGET_SETTINGS = ['SVC_BASE_URL', 'SVC_CONTROL_URL', 'SVC_CONTROL_TOKEN'];

export const loadSecretCommand: Command = {
  words: ['load', 'secret'],
  summary: 'Write the Secret a k6-operator rotation run reads (a workspace and two tokens made for it).',
  description:
    'Makes a workspace with two tokens through the control interface and writes the Secret of load/k8s/testrun-rotation.yaml to a file only you can read (kubectl apply -f it). Prints the control call that removes the workspace after the run.',
  options: {
    out: {
      type: 'string',
      value: '<file>',
      description: 'where the manifest goes (default svc-load-rotation.secret.yaml)',
    },
    name: {
      type: 'string',
      value: '<name>',
      description: "the Secret's name (default svc-load-rotation, as the TestRun expects)",
    },
  },
  settings: () => settingsHelp().filter((setting) => TARGET_SETTINGS.includes(setting.name)),
  exitCodes: { 0: 'the manifest was written', 2: 'it could not be (settings missing, the control interface refused)' },
  async run({ values }) {
    const { loadSettings } = await import('../../config/settings.js');
    const { writeRotationSecret } = await import('../../load/distributed/rotation-secret.js');
    const settings = loadSettings();
    const missing = TARGET_SETTINGS.filter((name) => !settings[name as keyof typeof settings]);
    if (missing.length > 0)
      throw new RunAbort(`load secret needs ${missing.join(', ')} of the staging service the cluster will load`);
    const out = typeof values.out === 'string' ? values.out : 'svc-load-rotation.secret.yaml';
    const name = typeof values.name === 'string' ? values.name : 'svc-load-rotation';
    const written = await writeRotationSecret(
      {
        baseUrl: settings.SVC_BASE_URL!,
        controlUrl: settings.SVC_CONTROL_URL!,
        controlToken: settings.SVC_CONTROL_TOKEN!,
      },
      name,
      out,
    );
    writeLine(
      process.stdout,
      `wrote Secret ${name} to ${written.path} (mode 600; it holds two tokens and the control token): kubectl apply -f ${written.path}`,
    );
    writeLine(process.stdout, `after the run, remove workspace ${written.workspaceId} with: ${written.removeWith}`);
    return 0;
  },
};
