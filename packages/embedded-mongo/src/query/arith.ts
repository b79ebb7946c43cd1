// Arithmetic that keeps MongoDB's numeric type rules: Int32 overflows into Long, anything with a
// Double is a Double, anything with a Decimal128 is exact decimal arithmetic.
import { Long } from 'bson';
import { Dec, bsonType, longToBigInt, decAdd, decMul, decToDecimal128, toDec, toNumber } from './values';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

type NumKind = 'int' | 'long' | 'double' | 'decimal';

export function numKind(v: unknown): NumKind | undefined {
  if (typeof v === 'number')
    return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? 'int' : 'double';
  switch (bsonType(v)) {
    case 'Long':
      return 'long';
    case 'Decimal128':
      return 'decimal';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
  }
  return undefined;
}

function widest(a: NumKind, b: NumKind): NumKind {
  const order: NumKind[] = ['int', 'long', 'double', 'decimal'];
  return order[Math.max(order.indexOf(a), order.indexOf(b))];
}

function toBig(v: unknown): bigint {
  if (bsonType(v) === 'Long') return longToBigInt(v as Long);
  return BigInt(Math.trunc(toNumber(v)));
}

function fromBigInt(n: bigint, kind: 'int' | 'long'): unknown {
  if (kind === 'int' && n >= BigInt(INT32_MIN) && n <= BigInt(INT32_MAX)) return Number(n);
  if (n >= LONG_MIN && n <= LONG_MAX) return Long.fromBigInt(n);
  return Number(n);
}

/** One operation written for each way of counting: exact decimals, doubles, and integers. */
interface NumericOperation {
  decimal(a: Dec, b: Dec): Dec;
  double(a: number, b: number): number;
  integer(a: bigint, b: bigint): bigint;
}

/** Applies `op` in the widest kind of the two operands; a non-number operand is a TypeError. */
function combine(a: unknown, b: unknown, op: NumericOperation): unknown {
  const ka = numKind(a);
  const kb = numKind(b);
  if (!ka || !kb) throw new TypeError('non-numeric');
  const kind = widest(ka, kb);
  if (kind === 'decimal') return decToDecimal128(op.decimal(toDec(a), toDec(b)));
  if (kind === 'double') return op.double(toNumber(a), toNumber(b));
  return fromBigInt(op.integer(toBig(a), toBig(b)), kind);
}

const ADD: NumericOperation = { decimal: decAdd, double: (a, b) => a + b, integer: (a, b) => a + b };
const MULTIPLY: NumericOperation = { decimal: decMul, double: (a, b) => a * b, integer: (a, b) => a * b };

export function addNumbers(a: unknown, b: unknown): unknown {
  return combine(a, b, ADD);
}

export function multiplyNumbers(a: unknown, b: unknown): unknown {
  return combine(a, b, MULTIPLY);
}

/** Running sum for $sum/$avg: exact for integers and decimals, Double once a Double is seen. */
export class NumericSum {
  private kind: NumKind = 'int';
  private big = 0n;
  private dbl = 0;
  private dec = toDec(0);
  count = 0;

  add(v: unknown): void {
    const k = numKind(v);
    if (!k) return;
    this.count++;
    this.kind = widest(this.kind, k);
    if (k === 'decimal') this.dec = decAdd(this.dec, toDec(v));
    else if (k === 'double') this.dbl += toNumber(v);
    else this.big += toBig(v);
  }

  value(): unknown {
    if (this.kind === 'decimal')
      return decToDecimal128(decAdd(decAdd(this.dec, toDec(this.dbl)), { m: this.big, e: 0 }));
    if (this.kind === 'double') return this.dbl + Number(this.big);
    return fromBigInt(this.big, this.kind);
  }

  average(): unknown {
    if (this.count === 0) return null;
    if (this.kind === 'decimal') {
      const total = toDec(this.value());
      return decToDecimal128({ m: (total.m * 10n ** 20n) / BigInt(this.count), e: total.e - 20 });
    }
    return toNumber(this.value()) / this.count;
  }
}
