/**
 * Offer figures may arrive as numbers or as text ("125,000", "£1,250.50", " 0.085 "). Everything that
 * reads them goes through here so a missing, non-numeric or infinite value is treated the same way
 * everywhere: as empty.
 */
/** Unambiguous, so linear (`\d+\.?\d*` was quadratic on a long run of digits); text is capped first. */
const NUMERIC_TEXT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;
const NUMERIC_TEXT_MAX_LENGTH = 64;

export function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.length > NUMERIC_TEXT_MAX_LENGTH) return null;
  const cleaned = value.replace(/[£,\s]/g, '');
  if (!NUMERIC_TEXT.test(cleaned)) return null;
  const parsed = Number(cleaned);
  return Number.isFinite(parsed) ? parsed : null;
}

/** The first argument that parses as a number, else null. */
export function firstNumber(...values: unknown[]): number | null {
  for (const value of values) {
    const parsed = parseNumber(value);
    if (parsed !== null) return parsed;
  }
  return null;
}

/** The first argument that parses as a non-zero number, else null: the spec's "else" chains skip zeros. */
export function firstNonZero(...values: unknown[]): number | null {
  for (const value of values) {
    const parsed = parseNumber(value);
    if (parsed !== null && parsed !== 0) return parsed;
  }
  return null;
}

export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
}
