import { z } from 'zod';

/**
 * An optional field that also takes `null` as "not given": browsers send null for what they do not
 * have (`URLSearchParams.get` answers null for a missing parameter), and that must not be a 400.
 */
export function optionalOrNull<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}
