import type { Clock } from '@lsp/service-kit';

/**
 * A clock the tests move: expiry is tested without waiting. It runs with real time, shifted by what
 * the test has advanced it.
 */
export class TestClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Back to real time. */
  reset(): void {
    this.offsetMs = 0;
  }
}
