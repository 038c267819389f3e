/** The reproduce line of a failure: the request as `curl`, runnable, and never holding a secret. */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { curlCommand, REPRODUCE_BODY_CHARS, shellArg } from '../../src/http/reproduce.js';
import { registerSecret } from '../../src/secrets/mask.js';
import { judgedFirst, type Exchange } from '../../src/http/tally.js';

/** What a POSIX shell makes of `words` (one argument per line), with `env` set. */
function shellWords(words: string, env: Record<string, string>): string[] {
  return execFileSync('sh', ['-c', `printf '%s\\n' ${words}`], {
    env: { ...env, PATH: process.env['PATH'] ?? '' },
    encoding: 'utf8',
  })
    .split('\n')
    .slice(0, -1);
}

describe('curlCommand', () => {
  test('the token becomes the placeholder, expanded by the shell; nothing else of the argument is', () => {
    const token = 'svc_test_reproduce0000000000000000';
    const line = curlCommand(
      {
        method: 'GET',
        url: 'http://127.0.0.1:1/v1/whoami',
        headers: { authorization: `Bearer ${token}`, 'x-note': `it's $HOME "quoted"` },
        body: undefined,
      },
      '$SVC_TOKEN',
    );
    expect(line).not.toContain(token);
    expect(line).toContain('"authorization: Bearer $SVC_TOKEN"');
    const words = shellWords(line.replace(/^curl /, ''), { SVC_TOKEN: 'from-the-shell', HOME: '/nowhere' });
    expect(words).toEqual([
      '-sS',
      '-i',
      '-X',
      'GET',
      'http://127.0.0.1:1/v1/whoami',
      '-H',
      'authorization: Bearer from-the-shell',
      '-H',
      `x-note: it's $HOME "quoted"`,
    ]);
  });

  test('a registered secret in the body is a placeholder too, and the rest of the body stays literal', () => {
    registerSecret('a-registered-signing-secret');
    const body = JSON.stringify({ secret: 'a-registered-signing-secret', note: '`$(rm -rf /)`' });
    const line = curlCommand({ method: 'POST', url: 'http://127.0.0.1:1/x', headers: {}, body }, '$SVC_CONTROL_TOKEN');
    expect(line).not.toContain('a-registered-signing-secret');
    const words = shellWords(line.replace(/^curl /, ''), { SVC_CONTROL_TOKEN: 'S' });
    expect(words.at(-1)).toBe(JSON.stringify({ secret: 'S', note: '`$(rm -rf /)`' }));
  });

  test('an invalid credential a check sends on purpose is kept as sent: it is the point of the request', () => {
    expect(shellArg('authorization: Basic Zm9vOmJhcg==', '$SVC_TOKEN')).toBe(`'authorization: Basic Zm9vOmJhcg=='`);
  });

  test('a body too long to carry inline is left out, and the command says so', () => {
    const line = curlCommand(
      { method: 'POST', url: 'http://h/x', headers: {}, body: 'x'.repeat(REPRODUCE_BODY_CHARS + 1) },
      '$SVC_TOKEN',
    );
    expect(line).toContain(`the ${REPRODUCE_BODY_CHARS + 1}-character body, not shown`);
    expect(line.length).toBeLessThan(200);
  });
});

describe('judgedFirst', () => {
  const a: Exchange = { request: 'GET /a', answer: 200 };
  const b: Exchange = { request: 'GET /b', answer: 403 };

  test('the judged exchange comes first, marked, and is not repeated among the recent ones', () => {
    expect(judgedFirst(b, [a, b])).toEqual([{ ...b, judged: true }, a]);
  });

  test('a judged exchange from outside the check (a shared observation) is prepended', () => {
    const shared: Exchange = { request: 'GET /shared', answer: 403 };
    expect(judgedFirst(shared, [a])).toEqual([{ ...shared, judged: true }, a]);
  });

  test('without a judged exchange, the recent ones as they were', () => {
    expect(judgedFirst(undefined, [a, b])).toEqual([a, b]);
  });
});
