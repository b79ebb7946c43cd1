import { overlayPercent, overlaySchedule } from '../src/home/overlay-schedule';

describe('progress overlay schedule', () => {
  it('moves to stage 2 at 2.2 s, stage 3 at 4.4 s and completes 0.8 s later', () => {
    expect(overlaySchedule()).toEqual([
      { at: 2200, stage: 2 },
      { at: 4400, stage: 3 },
      { at: 5200, complete: true },
    ]);
  });

  it('shows 33%, 67% and 100% for the three stages', () => {
    expect([1, 2, 3].map((stage) => overlayPercent(stage))).toEqual([33, 67, 100]);
  });
});
