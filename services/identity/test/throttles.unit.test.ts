import { deviceLocked, lockedBy, slowdownMs } from '../src/domain/throttles';

const CONFIG = {
  LOGIN_FAILURE_WINDOW_SECONDS: 900,
  LOGIN_SLOWDOWN_AFTER: 3,
  LOGIN_SLOWDOWN_STEP_MS: 500,
  LOGIN_SLOWDOWN_MAX_MS: 3000,
  LOGIN_LOCK_AFTER_PER_EMAIL: 8,
  LOGIN_LOCK_AFTER_PER_IP: 30,
};

describe('sign-in throttling rules', () => {
  it('locks from the 8th failure for one email or the 30th from one address', () => {
    expect(lockedBy({ byEmail: 7, byIp: 29 }, CONFIG)).toBeNull();
    expect(lockedBy({ byEmail: 8, byIp: 0 }, CONFIG)).toBe('email');
    expect(lockedBy({ byEmail: 0, byIp: 30 }, CONFIG)).toBe('ip');
    expect(lockedBy({ byEmail: 8, byIp: 30 }, CONFIG)).toBe('email');
  });

  it('slows attempts from the 3rd failure in 500 ms steps, at most 3 s, an address counting a third', () => {
    expect(slowdownMs({ byEmail: 2, byIp: 0 }, CONFIG)).toBe(0);
    expect(slowdownMs({ byEmail: 3, byIp: 0 }, CONFIG)).toBe(500);
    expect(slowdownMs({ byEmail: 5, byIp: 0 }, CONFIG)).toBe(1500);
    expect(slowdownMs({ byEmail: 20, byIp: 0 }, CONFIG)).toBe(3000);
    expect(slowdownMs({ byEmail: 0, byIp: 9 }, CONFIG)).toBe(500);
    expect(slowdownMs({ byEmail: 0, byIp: 8 }, CONFIG)).toBe(0);
  });

  it('locks a trusted device from its own 8th failure, whatever the email and address counts', () => {
    expect(deviceLocked(7, CONFIG)).toBe(false);
    expect(deviceLocked(8, CONFIG)).toBe(true);
  });
});
