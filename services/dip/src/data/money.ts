import { dipMoneySchema } from '@lsp/contracts';
import { Decimal128 } from 'mongodb';
import { z } from 'zod';

/** Money is stored as Decimal128 with 2 places (the spec's precision 15, scale 2), never as a float. */
export const toMoney = (value: number) => Decimal128.fromString(value.toFixed(2));
export const fromMoney = (value: Decimal128 | number) => Number(value.toString());

export const toMoneyOrNull = (value: number | null | undefined) =>
  value === null || value === undefined ? null : toMoney(value);
export const fromMoneyOrNull = (value: Decimal128 | number | null | undefined) =>
  value === null || value === undefined ? null : fromMoney(value);

/**
 * A value of `schema` with every money field (each declared with contracts' `dipMoneySchema`) passed
 * through `convert`, found by walking the schema: objects by their shape, nullable and optional fields
 * when present. Anything else, and a field the schema does not declare, is left as it is.
 */
export function mapMoney(schema: z.ZodType, value: unknown, convert: (money: never) => unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema === dipMoneySchema) return convert(value as never);
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional)
    return mapMoney(schema.unwrap() as z.ZodType, value, convert);
  if (schema instanceof z.ZodObject && typeof value === 'object' && !Array.isArray(value)) {
    const mapped: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, field] of Object.entries(schema.shape))
      if (key in mapped) mapped[key] = mapMoney(field as z.ZodType, mapped[key], convert);
    return mapped;
  }
  return value;
}
