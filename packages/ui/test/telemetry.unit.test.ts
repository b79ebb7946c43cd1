import { TELEMETRY_DUPLICATE_FAILURE_WINDOW_MS, shouldReportTelemetryFailure } from '../src/app/telemetry';

describe('share-funnel telemetry failures', () => {
  it('are reported once per event name in the 30 s duplicate-failure window', () => {
    expect(TELEMETRY_DUPLICATE_FAILURE_WINDOW_MS).toBe(30_000);
    const t0 = 1_000_000;
    expect(shouldReportTelemetryFailure('share_link_copied', t0)).toBe(true);
    expect(shouldReportTelemetryFailure('share_link_copied', t0 + 29_999)).toBe(false);
    // Another event has a window of its own.
    expect(shouldReportTelemetryFailure('share_accepted', t0 + 1)).toBe(true);
    expect(shouldReportTelemetryFailure('share_link_copied', t0 + 30_000)).toBe(true);
    expect(shouldReportTelemetryFailure('share_link_copied', t0 + 30_001)).toBe(false);
  });
});
