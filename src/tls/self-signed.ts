import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSignedCertificate {
  certPath: string;
  keyPath: string;
  cert: string;
  key: string;
}

export interface SelfSignedOptions {
  /** IP addresses and DNS names, each becomes a subjectAltName entry. */
  hosts: string[];
  /** Where to write cert.pem and key.pem; default a fresh private temp dir. */
  dir?: string;
  /** Bound on the openssl child process. */
  timeoutMs?: number;
}

// Letters, digits, dots, hyphens and a leading wildcard: nothing that could add a second
// entry or option to the -addext argument (a comma would).
const DNS_NAME = /^(\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/**
 * A certificate for the receiver, made per run with the `openssl` CLI (no committed TLS
 * blobs): EC P-256 key, valid one day, subjectAltName listing every host the service may
 * call it by (127.0.0.1 at least, per contracts/control-interface.md).
 */
export async function createSelfSignedCertificate(opts: SelfSignedOptions): Promise<SelfSignedCertificate> {
  const subjectAltName = opts.hosts.map(sanEntry).join(',');
  if (subjectAltName === '') throw new TypeError('createSelfSignedCertificate needs at least one host');
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'receiver-tls-')));
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  await runOpenssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=conformance-capturing-receiver',
      '-addext',
      `subjectAltName=${subjectAltName}`,
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'extendedKeyUsage=serverAuth',
    ],
    opts.timeoutMs ?? 15_000,
  );
  // The temp dir is already 0700; the key is a secret, so it is 0600 whatever the umask.
  await chmod(keyPath, 0o600);
  const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
  return { certPath, keyPath, cert, key };
}

function sanEntry(host: string): string {
  if (isIP(host) !== 0) return `IP:${host}`;
  if (DNS_NAME.test(host)) return `DNS:${host}`;
  throw new TypeError(`not an IP address or DNS name: ${JSON.stringify(host)}`);
}

function runOpenssl(args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('openssl', args, { timeout: timeoutMs, killSignal: 'SIGKILL' }, (error, _stdout, stderr) => {
      if (error === null) return resolve();
      const why = error.killed ? `timed out after ${timeoutMs} ms` : stderr.toString().trim() || error.message;
      reject(new Error(`openssl could not make a self-signed certificate: ${why}`));
    });
  });
}
