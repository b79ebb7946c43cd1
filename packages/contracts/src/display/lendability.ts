import { LENDABILITY_GREEN_FROM, LENDABILITY_YELLOW_FROM } from '../common/constants';

export type LendabilityBand = 'green' | 'yellow' | 'red';

/** Lendability Score colour: green at 70 and over, yellow at 50 and over, red below. */
export function lendabilityBand(score: number): LendabilityBand {
  if (score >= LENDABILITY_GREEN_FROM) return 'green';
  if (score >= LENDABILITY_YELLOW_FROM) return 'yellow';
  return 'red';
}
