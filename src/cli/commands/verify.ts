/** `svc-harness verify`: checks a certification's attestation against the certifier's public key and the reports handed over with it. */
import { writeLine } from '../../text/console.js';
import { type Command, UsageError } from '../command.js';

export const verifyCommand: Command = {
  words: ['verify'],
  summary: "Verify a certification's signed attestation and the reports it names.",
  description:
    'Checks the DSSE signature of attestation.intoto.json with the public key, that it holds an in-toto Statement v1 with\n' +
    'the test-result predicate, and that every report file it names has the sha256 it states; then prints the verdict it attests.',
  positionals: {
    usage: '<attestation.intoto.json>',
    description: 'the attestation certify wrote beside its reports',
    min: 1,
    max: 1,
  },
  options: {
    key: {
      type: 'string',
      value: '<public.pem>',
      description: "the certifier's public key (SPKI PEM: `openssl pkey -in key.pem -pubout`); required",
    },
    reports: {
      type: 'string',
      value: '<dir>',
      description: "the folder holding the reports (default: the attestation's folder)",
    },
  },
  exitCodes: {
    0: 'the signature and every report digest hold; the attested verdict is printed (whatever it is)',
    1: 'they do not: not an envelope (truncated, edited), a wrong key, an edited payload, or a missing or edited report; one line says which',
    2: 'it could not be checked: no --key, or a key file that is not an ECDSA P-256 or Ed25519 PEM key',
  },
  notes: ['The exit code says whether the attestation holds, not whether the run passed: read the result line.'],
  async run({ values, positionals }) {
    if (typeof values.key !== 'string')
      throw new UsageError('--key <public.pem> is required: the certifier hands it over with the attestation');
    const { loadVerifyingKey } = await import('../../attest/keys.js');
    const { attestedLines, verifyAttestation } = await import('../../attest/verify.js');
    const key = loadVerifyingKey(values.key);
    const verified = verifyAttestation({
      attestationPath: positionals[0]!,
      key,
      keyPath: values.key,
      ...(typeof values.reports === 'string' ? { reportsDir: values.reports } : {}),
    });
    const out = (line: string) => writeLine(process.stdout, line);
    out(`verified: ${positionals[0]} signed by ${key.algorithm} key ${key.keyid}`);
    for (const subject of verified.subjects) {
      out(
        subject.kind === 'file'
          ? `  ${subject.name}: sha256 ${subject.sha256} matches`
          : `  image ${subject.name}: sha256:${subject.sha256} (compare with \`docker image inspect --format '{{.Id}}'\`)`,
      );
    }
    for (const line of attestedLines(verified.statement)) out(line);
    return 0;
  },
};
