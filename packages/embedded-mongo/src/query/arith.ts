// Arithmetic that keeps MongoDB's numeric type rules: Int32 overflows into Long, anything with a
// Double is a Double, anything with a Decimal128 is exact decimal arithmetic.
import { Long } from 'bson';
import { bsonType, longToBigInt, decAdd, decMul, decToDecimal128, toDec, toNumber } from './values';

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

export function addNumbers(a: unknown, b: unknown): unknown {
  const ka = numKind(a);
  const kb = numKind(b);
  if (!ka || !kb) throw new TypeError('non-numeric');
  const kind = widest(ka, kb);
  if (kind === 'decimal') return decToDecimal128(decAdd(toDec(a), toDec(b)));
  if (kind === 'double') return toNumber(a) + toNumber(b);
  return fromBigInt(toBig(a) + toBig(b), kind);
}

export function multiplyNumbers(a: unknown, b: unknown): unknown {
  const ka = numKind(a);
  const kb = numKind(b);
  if (!ka || !kb) throw new TypeError('non-numeric');
  const kind = widest(ka, kb);
  if (kind === 'decimal') return decToDecimal128(decMul(toDec(a), toDec(b)));
  if (kind === 'double') return toNumber(a) * toNumber(b);
  return fromBigInt(toBig(a) * toBig(b), kind);
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
    if (this.kind === 'int' && this.big >= BigInt(INT32_MIN) && this.big <= BigInt(INT32_MAX))
      return Number(this.big);
    if (this.big >= LONG_MIN && this.big <= LONG_MAX) return Long.fromBigInt(this.big);
    return Number(this.big);
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
