/** The time, as a port: expiry rules are tested by moving a clock rather than by waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
