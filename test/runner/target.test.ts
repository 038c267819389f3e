/** What a run that cannot reach its target tells the user to look at (src/runner/target.ts). */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors.js';
import { unreachableHint } from '../../src/runner/target.js';

describe('unreachableHint', () => {
  it('names SVC_CA_CERT for a certificate the harness does not trust', () => {
    const error = new HttpError(
      'GET /v1/whoami: self-signed certificate in certificate chain',
      'network',
      'SELF_SIGNED_CERT_IN_CHAIN',
    );
    expect(unreachableHint('https://staging.example.test', error)).toMatch(/^check SVC_CA_CERT/);
  });

  it('names the client certificate for an https target that closed the connection', () => {
    const error = new HttpError('GET /v1/whoami: other side closed (sent 4 times)', 'network', 'UND_ERR_SOCKET');
    expect(unreachableHint('https://staging.example.test', error)).toMatch(
      /^check SVC_BASE_URL; .*SVC_CLIENT_CERT and SVC_CLIENT_KEY/,
    );
    expect(unreachableHint('http://127.0.0.1:9', error)).not.toMatch(/SVC_CLIENT_CERT/);
  });
});
