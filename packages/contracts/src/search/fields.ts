import { z } from 'zod';
import { MAX_MONEY } from '../common/constants';
import { NUMERIC_TEXT_MAX_LENGTH, NUMERIC_TEXT_PATTERN } from '../common/text';

/**
 * Field builders shared by the three search payloads. Number inputs on the forms hold text with UK
 * thousands separators and an optional £ prefix, so numeric text is accepted and converted; anything
 * else that is not a number is refused with "<Field> must be a number" rather than zod's generic text.
 */
export function coerceNumericText(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value !== 'string') return value;
  // Longer text is no amount: left as it is, it is refused as '<Field> must be a number' unread.
  if (value.length > NUMERIC_TEXT_MAX_LENGTH) return value;
  const cleaned = value.replace(/[£,\s]/g, '');
  if (cleaned === '') return undefined;
  return NUMERIC_TEXT_PATTERN.test(cleaned) ? Number(cleaned) : value;
}

function numberType(label: string, requiredMessage?: string) {
  return z.number({
    error: (issue) =>
      issue.input === undefined ? (requiredMessage ?? `${label} is required`) : `${label} must be a number`,
  });
}

const moneyMaxMessage = (label: string) => `${label} must be at most £1,000,000,000`;

/** A money amount that must be given and at least £1; missing or below 1 both give the spec's message. */
export function requiredMoney(label: string, requiredMessage: string) {
  return z.preprocess(
    coerceNumericText,
    numberType(label, requiredMessage).min(1, requiredMessage).max(MAX_MONEY, moneyMaxMessage(label)),
  );
}

/** An optional money amount of zero or more. */
export function optionalMoney(label: string) {
  return z.preprocess(
    coerceNumericText,
    numberType(label).min(0, `${label} cannot be negative`).max(MAX_MONEY, moneyMaxMessage(label)).optional(),
  );
}

export function moneyWithDefault(label: string, fallback: number) {
  return z.preprocess(
    coerceNumericText,
    numberType(label)
      .min(0, `${label} cannot be negative`)
      .max(MAX_MONEY, moneyMaxMessage(label))
      .default(fallback),
  );
}

/** A whole number of months or years, at least 1. */
export function requiredTerm(label: string, requiredMessage: string, max: number, unit: string) {
  return z.preprocess(
    coerceNumericText,
    numberType(label, requiredMessage)
      .int(`${label} must be a whole number of ${unit}`)
      .min(1, requiredMessage)
      .max(max, `${label} must be at most ${max} ${unit}`),
  );
}

export function wholeNumberWithDefault(label: string, fallback: number, max: number) {
  return z.preprocess(
    coerceNumericText,
    numberType(label)
      .int(`${label} must be a whole number`)
      .min(0, `${label} cannot be negative`)
      .max(max, `${label} must be at most ${max}`)
      .default(fallback),
  );
}

function coerceBooleanText(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === null) return undefined;
  return value;
}

export function flag(label: string, fallback = false) {
  return z.preprocess(
    coerceBooleanText,
    z.boolean({ error: `${label} must be true or false` }).default(fallback),
  );
}

export function requiredText(requiredMessage: string, max = 200) {
  return z
    .string({ error: requiredMessage })
    .max(max, `Must be at most ${max} characters`)
    .trim()
    .min(1, requiredMessage);
}

export function optionalText(label: string, max = 500) {
  return z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .trim()
    .optional();
}

/** netLoanRequired, when given, is a whole-pounds amount of at least £1. */
export const netLoanField = z.preprocess(
  coerceNumericText,
  numberType('Net loan required')
    .min(1, 'Net loan required must be at least £1')
    .max(MAX_MONEY, moneyMaxMessage('Net loan required'))
    .optional(),
);
