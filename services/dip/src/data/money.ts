import { Decimal128 } from 'mongodb';

/** Money is stored as Decimal128 with 2 places (the spec's precision 15, scale 2), never as a float. */
export const toMoney = (value: number) => Decimal128.fromString(value.toFixed(2));
export const fromMoney = (value: Decimal128 | number) => Number(value.toString());

export const toMoneyOrNull = (value: number | null | undefined) =>
  value === null || value === undefined ? null : toMoney(value);
export const fromMoneyOrNull = (value: Decimal128 | number | null | undefined) =>
  value === null || value === undefined ? null : fromMoney(value);
