import { toastDurationOf } from '../src/components/toast';

describe('toast durations (3000 or 4000 ms)', () => {
  it('keeps information and success for 3000 ms', () => {
    expect(toastDurationOf({ title: 'Copied' })).toBe(3000);
    expect(toastDurationOf({ title: 'Link Copied', variant: 'success' })).toBe(3000);
  });

  it('keeps errors and warnings for 4000 ms', () => {
    expect(toastDurationOf({ title: 'Error', variant: 'error' })).toBe(4000);
    expect(toastDurationOf({ title: 'Careful', variant: 'warning' })).toBe(4000);
  });

  it('honours an explicit duration', () => {
    expect(toastDurationOf({ title: 'Error', variant: 'error', duration: 3000 })).toBe(3000);
  });
});
