// BSON value semantics shared by matching, sorting, indexing and arithmetic: MongoDB's cross-type
// ordering, numeric comparison across Int32/Double/Long/Decimal128, and canonical keys for hashing.
import { activeCollator } from './collation';
import { Binary, Code, Decimal128, Long, ObjectId, Timestamp } from 'bson';

export type Doc = Record<string, unknown>;

/**
 * A Long's value as a bigint, from its two 32-bit halves (bson's own toBigInt goes through a decimal
 * string, which showed up in every command's profile through txnNumber).
 */
export function longToBigInt(v: Long): bigint {
  return (BigInt(v.high) << 32n) + BigInt(v.low >>> 0);
}

export function bsonType(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  return (v as { _bsontype?: string })._bsontype;
}

export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'bigint') return true;
  const t = bsonType(v);
  return t === 'Long' || t === 'Decimal128' || t === 'Int32' || t === 'Double';
}

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (bsonType(v) !== undefined) return false;
  if (v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v)) return false;
  return true;
}

// Field names come from clients. Documents are plain objects, so `doc[name]` would also find what
// every object inherits (`constructor`, `toString`, `__proto__` → Object.prototype), and
// `doc[name] = v` with `__proto__` would replace the document's prototype, or, one level down
// (`$set: { '__proto__.x': 1 }`), write into Object.prototype for the whole process. Every read
// and write of a field named by a client goes through these two.

/** The document's own field `name`; never an inherited member. */
export function getField(doc: object, name: string): unknown {
  return Object.hasOwn(doc, name) ? (doc as Doc)[name] : undefined;
}

/** Sets the own field `name`; `__proto__` is stored as an ordinary field, as MongoDB does. */
export function setField(doc: object, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(doc, name, { value, writable: true, enumerable: true, configurable: true });
  else (doc as Doc)[name] = value;
}

/** Canonical type rank from the BSON comparison order. */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number' || typeof v === 'bigint') return 2;
  if (typeof v === 'string') return 3;
  if (typeof v === 'boolean') return 8;
  if (Array.isArray(v)) return 5;
  if (v instanceof Date) return 9;
  if (v instanceof RegExp) return 11;
  switch (bsonType(v)) {
    case 'MinKey':
      return 0;
    case 'Int32':
    case 'Double':
    case 'Long':
    case 'Decimal128':
      return 2;
    case 'BSONSymbol':
      return 3;
    case 'Binary':
      return 6;
    case 'ObjectId':
      return 7;
    case 'Timestamp':
      return 10;
    case 'BSONRegExp':
      return 11;
    case 'MaxKey':
      return 12;
    case 'Code':
      return 13;
    default:
      return ArrayBuffer.isView(v) ? 6 : 4;
  }
}

/** Exact decimal form m × 10^e, used for Decimal128 arithmetic and comparison. */
export interface Dec {
  m: bigint;
  e: number;
  special?: 'nan' | 'inf' | '-inf';
}

export function decFromString(s: string): Dec {
  const t = s.trim();
  if (/^[+-]?(nan)$/i.test(t)) return { m: 0n, e: 0, special: 'nan' };
  if (/^\+?inf(inity)?$/i.test(t)) return { m: 0n, e: 0, special: 'inf' };
  if (/^-inf(inity)?$/i.test(t)) return { m: 0n, e: 0, special: '-inf' };
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
  if (!match) return { m: 0n, e: 0, special: 'nan' };
  const [, sign, int = '', frac = '', exp = '0'] = match;
  const digits = (int + frac).replace(/^0+(?=\d)/, '') || '0';
  const m = BigInt(digits) * (sign === '-' ? -1n : 1n);
  return { m, e: Number(exp) - frac.length };
}

export function toDec(v: unknown): Dec {
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { m: 0n, e: 0, special: 'nan' };
    if (!Number.isFinite(v)) return { m: 0n, e: 0, special: v > 0 ? 'inf' : '-inf' };
    if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) return { m: BigInt(v), e: 0 };
    return decFromString(String(v));
  }
  if (typeof v === 'bigint') return { m: v, e: 0 };
  const t = bsonType(v);
  if (t === 'Long') return { m: longToBigInt(v as Long), e: 0 };
  if (t === 'Decimal128') return decFromString((v as Decimal128).toString());
  if (t === 'Int32' || t === 'Double') return toDec((v as { value: number }).value);
  return { m: 0n, e: 0, special: 'nan' };
}

function alignDec(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.m * 10n ** BigInt(a.e - e), b.m * 10n ** BigInt(b.e - e), e];
}

export function decCompare(a: Dec, b: Dec): number {
  const rank = (d: Dec) =>
    d.special === 'nan' ? -2 : d.special === '-inf' ? -1 : d.special === 'inf' ? 1 : 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== 0 || rb !== 0) return ra === rb ? 0 : ra < rb ? -1 : ra > rb ? 1 : 0;
  const [x, y] = alignDec(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function decAdd(a: Dec, b: Dec): Dec {
  if (a.special || b.special) return { m: 0n, e: 0, special: a.special ?? b.special };
  const [x, y, e] = alignDec(a, b);
  return { m: x + y, e };
}

export function decMul(a: Dec, b: Dec): Dec {
  if (a.special || b.special) return { m: 0n, e: 0, special: 'nan' };
  return { m: a.m * b.m, e: a.e + b.e };
}

export function decToDecimal128(d: Dec): Decimal128 {
  if (d.special === 'nan') return Decimal128.fromString('NaN');
  if (d.special === 'inf') return Decimal128.fromString('Infinity');
  if (d.special === '-inf') return Decimal128.fromString('-Infinity');
  return Decimal128.fromStringWithRounding(`${d.m}E${d.e}`);
}

/** Numeric value as a JS number (may lose precision for large Longs/Decimals). */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const t = bsonType(v);
  if (t === 'Long') return (v as Long).toNumber();
  if (t === 'Decimal128') return Number((v as Decimal128).toString());
  if (t === 'Int32' || t === 'Double') return (v as { value: number }).value;
  return NaN;
}

function compareNumbers(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const ta = bsonType(a);
  const tb = bsonType(b);
  if (ta !== 'Decimal128' && tb !== 'Decimal128') {
    // BigInt against number compares exactly in JavaScript, so Long vs Double needs no rounding.
    const x =
      ta === 'Long' ? longToBigInt(a as Long) : typeof a === 'object' ? toNumber(a) : (a as number | bigint);
    const y =
      tb === 'Long' ? longToBigInt(b as Long) : typeof b === 'object' ? toNumber(b) : (b as number | bigint);
    if (typeof x === 'number' && Number.isNaN(x)) return typeof y === 'number' && Number.isNaN(y) ? 0 : -1;
    if (typeof y === 'number' && Number.isNaN(y)) return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return decCompare(exactDec(a), exactDec(b));
}

/**
 * toDec, but a double as its exact binary value: MongoDB compares Decimal128('9.99') with the
 * double 9.99 (9.9900000000000002131…) as different numbers (toDec reads the double's shortest
 * printed form, 9.99, as arithmetic with decimals wants).
 */
function exactDec(v: unknown): Dec {
  const x = typeof v === 'number' ? v : bsonType(v) === 'Double' ? (v as { value: number }).value : undefined;
  if (x === undefined || !Number.isFinite(x)) return toDec(v);
  if (Number.isInteger(x)) return { m: BigInt(x), e: 0 };
  // x · 2^k is an integer for some k ≤ 1074; doubling is exact, and x · 2^k = m / 5^k · 10^k.
  let y = x;
  let k = 0;
  while (!Number.isInteger(y)) {
    y *= 2;
    k++;
  }
  return { m: BigInt(y) * 5n ** BigInt(k), e: -k };
}

function binaryBytes(v: unknown): Uint8Array {
  if (bsonType(v) === 'Binary') return (v as Binary).buffer;
  return v as Uint8Array;
}

/** Total order of BSON values as MongoDB sorts them. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
    case 1:
    case 12:
      return 0;
    case 2:
      return compareNumbers(a, b);
    case 3: {
      const x = String(typeof a === 'string' ? a : (a as { value: string }).value);
      const y = String(typeof b === 'string' ? b : (b as { value: string }).value);
      const collator = activeCollator();
      if (collator) return Math.sign(collator.compare(x, y));
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4: {
      const ea = Object.entries(a as Doc);
      const eb = Object.entries(b as Doc);
      for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
        const c = compareValues(ea[i][1], eb[i][1]);
        if (c !== 0) return c;
        if (ea[i][0] !== eb[i][0]) return ea[i][0] < eb[i][0] ? -1 : 1;
      }
      return ea.length - eb.length === 0 ? 0 : ea.length < eb.length ? -1 : 1;
    }
    case 5: {
      const xa = a as unknown[];
      const xb = b as unknown[];
      for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
        const c = compareValues(xa[i], xb[i]);
        if (c !== 0) return c;
      }
      return xa.length === xb.length ? 0 : xa.length < xb.length ? -1 : 1;
    }
    case 6: {
      const x = binaryBytes(a);
      const y = binaryBytes(b);
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      const sa = bsonType(a) === 'Binary' ? (a as Binary).sub_type : 0;
      const sb = bsonType(b) === 'Binary' ? (b as Binary).sub_type : 0;
      if (sa !== sb) return sa < sb ? -1 : 1;
      return Buffer.compare(x, y);
    }
    case 7:
      return Buffer.compare((a as ObjectId).id, (b as ObjectId).id);
    case 8:
      return a === b ? 0 : a ? 1 : -1;
    case 9: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 10: {
      const x = (a as Timestamp).toBigInt();
      const y = (b as Timestamp).toBigInt();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 13: {
      // JavaScript code by its text (String() of a Code is "[object Object]" for every one of them).
      const x = (a as Code).code;
      const y = (b as Code).code;
      if (x !== y) return x < y ? -1 : 1;
      const sa = valueKey((a as Code).scope ?? null);
      const sb = valueKey((b as Code).scope ?? null);
      return sa === sb ? 0 : sa < sb ? -1 : 1;
    }
    default: {
      const x = String(a);
      const y = String(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  // A value equals itself under every type's comparison (and every collation).
  if (a === b) return true;
  return typeRank(a) === typeRank(b) && compareValues(a, b) === 0;
}

/**
 * A string that is equal for two values exactly when MongoDB considers them equal (1, 1.0, Long(1)
 * and Decimal128('1.00') share a key; 9.99 and Decimal128('9.99') do not, the double being
 * 9.9900000000000002131…). Used for the _id map, every index and $group.
 *
 * The keys of an array's elements, of a document's fields and of a compound index's fields are
 * joined with `,`, `:` and NUL, so no key may let its content pass for those: strings are
 * length-prefixed (`s3:a,b`), and the rare string holding a NUL is JSON-quoted instead (a compound
 * key is split at its NULs); field names are JSON-quoted; every other payload (numbers, hex,
 * base64) never holds a separator. Each kind has its own leading tag, so no two kinds meet.
 */
export function valueKey(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  switch (typeof v) {
    case 'string':
      return stringKey(v);
    case 'number':
      return numberKey(v);
    case 'boolean':
      return v ? 'T' : 'F';
    case 'bigint':
      return 'n' + v.toString();
  }
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + valueKey(v[i]);
    return out + ']';
  }
  if (v instanceof Date) return 'd' + v.getTime();
  if (v instanceof RegExp) return 'r' + stringKey(v.source) + v.flags;
  switch (bsonType(v)) {
    case 'ObjectId':
      return 'o' + (v as ObjectId).toHexString();
    case 'Long':
      return 'n' + longToBigInt(v as Long).toString();
    case 'Int32':
    case 'Double':
      return numberKey((v as { value: number }).value);
    case 'Decimal128':
      return decimalKey(v as Decimal128);
    case 'Binary': {
      const b = v as Binary;
      return 'b' + b.sub_type + ':' + Buffer.from(b.buffer).toString('base64');
    }
    case 'Timestamp':
      return 't' + (v as Timestamp).toBigInt().toString();
    case 'MinKey':
      return '-';
    case 'MaxKey':
      return '+';
    case 'BSONSymbol':
      // MongoDB compares a symbol as the string it holds (the server reads symbols as strings).
      return stringKey((v as { value: string }).value);
    case 'BSONRegExp': {
      const r = v as { pattern: string; options: string };
      return 'r' + stringKey(r.pattern) + r.options;
    }
    case 'Code': {
      // JavaScript and JavaScript-with-scope are two BSON types, neither of them a document.
      const c = v as { code: string; scope?: Doc | null };
      return c.scope ? 'C' + stringKey(c.code) + valueKey(c.scope) : 'c' + stringKey(c.code);
    }
    case 'DBRef':
      // A DBRef is the document { $ref, $id, $db?, ... } that bson turned into an object.
      return valueKey((v as { toJSON(): Doc }).toJSON());
  }
  if (ArrayBuffer.isView(v))
    return 'b0:' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  const keys = Object.keys(v);
  let out = '{';
  for (let i = 0; i < keys.length; i++)
    out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + valueKey((v as Doc)[keys[i]]);
  return out + '}';
}

function stringKey(s: string): string {
  return s.includes('\u0000') ? 'S' + JSON.stringify(s) : 's' + s.length + ':' + s;
}

/**
 * Numbers of every BSON type share one form, so equal values meet: integers as their exact
 * decimal digits, other doubles as JavaScript prints them (the shortest text that reads back as
 * that double, so distinct doubles differ), NaN and the infinities by name.
 */
function numberKey(v: number): string {
  if (Number.isInteger(v)) return Math.abs(v) < 2 ** 53 ? 'n' + v : 'n' + BigInt(v).toString();
  return 'n' + v;
}

function decimalKey(v: Decimal128): string {
  const d = toDec(v);
  if (d.special) return d.special === 'nan' ? 'nNaN' : d.special === 'inf' ? 'nInfinity' : 'n-Infinity';
  let { m, e } = d;
  if (m === 0n) return 'n0';
  while (m % 10n === 0n) {
    m /= 10n;
    e += 1;
  }
  // Integers as digits, as Long and double print them; past 10^330 no double or Long reaches.
  if (e >= 0) return e > 330 ? 'n' + m + 'd' + e : 'n' + (m * 10n ** BigInt(e)).toString();
  // A fraction m / 10^k is a double exactly when m / 5^k is an integer y below 2^53 (then it is
  // y / 2^k); it takes the double's key then, and its own `md-k` form otherwise (`d` never occurs
  // in a printed double). With m below 10^34, 5^k divides it only for k up to 48.
  const k = -e;
  if (k <= 48) {
    const p = 5n ** BigInt(k);
    if (m % p === 0n) {
      const y = m / p;
      if (y < 2n ** 53n && y > -(2n ** 53n)) return numberKey(Number(y) / 2 ** k);
    }
  }
  return 'n' + m + 'd' + e;
}

/**
 * Whether `valueKey(a) === valueKey(b)`, walking both values instead of building the two keys: an
 * update compares the whole stored document with its new version, which shares most of its values
 * (strings, numbers, the same BSON objects) and differs early when it differs at all. Containers
 * compare field by field, in order; leaves that are not identical fall back to their keys.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !sameValue(a[ka[i]], b[ka[i]])) return false;
    return true;
  }
  return !Array.isArray(b) && valueKey(a) === valueKey(b);
}

/** Deep copy that keeps BSON value objects (they are immutable) and copies containers. */
export function cloneValue<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneValue) as T;
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) setField(out, k, cloneValue(v[k]));
    return out as T;
  }
  if (v instanceof Date) return new Date(v.getTime()) as T;
  return v;
}

/** MongoDB's BSON type names and numbers for $type. */
export function typeNames(v: unknown): string[] {
  if (v === null) return ['null'];
  if (v === undefined) return ['undefined'];
  if (typeof v === 'string') return ['string'];
  if (typeof v === 'boolean') return ['bool'];
  if (typeof v === 'number')
    return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? ['int', 'number'] : ['double', 'number'];
  if (Array.isArray(v)) return ['array'];
  if (v instanceof Date) return ['date'];
  if (v instanceof RegExp) return ['regex'];
  switch (bsonType(v)) {
    case 'ObjectId':
      return ['objectId'];
    case 'Long':
      return ['long', 'number'];
    case 'Decimal128':
      return ['decimal', 'number'];
    case 'Int32':
      return ['int', 'number'];
    case 'Double':
      return ['double', 'number'];
    case 'Binary':
      return ['binData'];
    case 'Timestamp':
      return ['timestamp'];
    case 'BSONRegExp':
      return ['regex'];
    case 'MinKey':
      return ['minKey'];
    case 'MaxKey':
      return ['maxKey'];
    case 'Code':
      return ['javascript'];
  }
  return ['object'];
}

export const TYPE_NUMBERS: Record<number, string> = {
  1: 'double',
  2: 'string',
  3: 'object',
  4: 'array',
  5: 'binData',
  6: 'undefined',
  7: 'objectId',
  8: 'bool',
  9: 'date',
  10: 'null',
  11: 'regex',
  13: 'javascript',
  16: 'int',
  17: 'timestamp',
  18: 'long',
  19: 'decimal',
  [-1]: 'minKey',
  127: 'maxKey',
};
