import { describe, expect, it } from 'vitest';
import { CheckRecord } from '../../src/check/record.js';
import { checkResult, settle, type CheckIdentity } from '../../src/check/result.js';

const spec = (level: CheckIdentity['level']): CheckIdentity => ({
  id: 'RCV-EXAMPLE',
  title: 'An example',
  clause: 'Events > Signature, 4',
  level,
  area: 'receiver-signature',
});
const FAKE_TOKEN = 'svc_test_FakeTokenForMaskingTests0123456789';

describe('settle', () => {
  it('passes a body that returns', async () => {
    expect(await settle(async () => undefined)).toEqual({ state: 'passed' });
  });

  it('fails with the reason a body gives to fail()', async () => {
    const t = new CheckRecord({ id: 'X' });
    expect(await settle(async () => t.fail('expected 401, got 200'))).toEqual({
      state: 'failed',
      failure: 'expected 401, got 200',
    });
  });

  it('skips with the reason a body gives to skip()', async () => {
    const t = new CheckRecord({ id: 'X' });
    expect(await settle(async () => t.skip('no control interface'))).toEqual({
      state: 'skipped',
      skipReason: 'no control interface',
    });
  });

  it('fails a body that crashes, saying so', async () => {
    expect(await settle(async () => JSON.parse('{'))).toMatchObject({
      state: 'failed',
      failure: expect.stringMatching(/^check crashed: .*JSON/),
    });
  });
});

describe('checkResult', () => {
  it.each([
    ['must', 'failed', 'fail'],
    ['should', 'failed', 'warn'],
    ['observe', 'passed', 'pass'],
    ['must', 'skipped', 'skip'],
  ] as const)('a %s check that %s is %s', (level, state, verdict) => {
    expect(checkResult(spec(level), { state, durationMs: 12.6 })).toMatchObject({
      id: 'RCV-EXAMPLE',
      level,
      verdict,
      duration_ms: 13,
    });
  });

  it('puts the failure first, then the skip reason and the details, masked', () => {
    const t = new CheckRecord({ id: 'RCV-EXAMPLE' });
    t.detail(`sent with ${FAKE_TOKEN}`);
    t.measureAll({ deliveries: 3 });
    const result = checkResult(spec('must'), {
      state: 'failed',
      failure: 'acknowledged 1 of 3',
      meta: t.toMeta(),
      durationMs: 5,
    });
    expect(result.detail).toMatch(/^acknowledged 1 of 3 \(rule: Events > Signature, 4\); sent with /);
    expect(result.detail).not.toContain(FAKE_TOKEN);
    expect(result.measurements).toEqual({ deliveries: 3 });
  });

  it('leaves out detail and measurements when the check left none', () => {
    const result = checkResult(spec('must'), {
      state: 'passed',
      meta: new CheckRecord({ id: 'RCV-EXAMPLE' }).toMeta(),
      durationMs: 1,
    });
    expect(result).not.toHaveProperty('detail');
    expect(result).not.toHaveProperty('measurements');
  });
});
