import { describe, expect, it } from 'vitest';
import { joinLane, laneOf } from '../../src/http/lanes.js';

describe('laneOf', () => {
  it('puts the credentials of one workspace in one lane', () => {
    joinLane('svc_test_FakeLaneTokenOne', 'ws_lanes1');
    joinLane('svc_test_FakeLaneTokenTwo', 'ws_lanes1');
    expect(laneOf({ authorization: 'Bearer svc_test_FakeLaneTokenOne' })).toBe(
      laneOf({ Authorization: 'Bearer svc_test_FakeLaneTokenTwo' }),
    );
  });

  it('gives a credential nobody grouped a lane of its own', () => {
    expect(laneOf({ authorization: 'Bearer svc_test_FakeUngroupedA' })).not.toBe(
      laneOf({ authorization: 'Bearer svc_test_FakeUngroupedB' }),
    );
  });

  it('has no lane for a request without credentials', () => {
    expect(laneOf({})).toBeUndefined();
    expect(laneOf(undefined)).toBeUndefined();
  });
});
