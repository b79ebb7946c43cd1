// Hostile inputs: values for a body's fields, keys injected into its objects, path parameters and
// query strings, and how a body is written as JSON text (including numbers JSON.stringify cannot write).

/** JSON text placed as is where this stands in a body (numbers JSON.stringify cannot write: 1e309, -0). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A body as JSON text; RawJson values are written verbatim. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof RawJson ? `\u0000fuzz-raw-${raws.push(v.text) - 1}\u0000` : v,
  );
  if (text === undefined) return '';
  return text.replace(/"\\u0000fuzz-raw-(\d+)\\u0000"/g, (_match, i: string) => raws[Number(i)] as string);
}

/** An object with an own key of any name (`__proto__` included), as JSON.parse would make it. */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

export function nestedObjects(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

export const KB = 1024;

/** Values that must never be taken where a typed field is expected (the schema decides which are). */
export function hostileValues(): Array<{ label: string; value: unknown }> {
  const proto = withOwnKey({}, '__proto__', { polluted: true });
  return [
    // wrong types
    { label: 'null', value: null },
    { label: 'true', value: true },
    { label: 'false', value: false },
    { label: 'zero', value: 0 },
    { label: 'an empty object', value: {} },
    { label: 'an empty array', value: [] },
    { label: 'an array of text', value: ['a'] },
    { label: 'an array of an object', value: [{}] },
    // numbers
    { label: '-1', value: -1 },
    { label: '-0', value: new RawJson('-0') },
    { label: '1.5', value: 1.5 },
    { label: '1e308', value: 1e308 },
    { label: '-1e308', value: -1e308 },
    { label: '1e309 (Infinity once parsed)', value: new RawJson('1e309') },
    { label: '-1e309 (-Infinity once parsed)', value: new RawJson('-1e309') },
    { label: '1e-400 (underflows to 0)', value: new RawJson('1e-400') },
    { label: '5e-324', value: 5e-324 },
    { label: 'a 30-digit integer', value: new RawJson('123456789012345678901234567890') },
    { label: '2^53 + 2', value: 2 ** 53 + 2 },
    // numbers as text, and text that only looks like a number
    { label: "'NaN'", value: 'NaN' },
    { label: "'Infinity'", value: 'Infinity' },
    { label: "'-Infinity'", value: '-Infinity' },
    { label: "'1e309'", value: '1e309' },
    { label: "'-1'", value: '-1' },
    { label: "'0x1F'", value: '0x1F' },
    { label: "'1_000'", value: '1_000' },
    { label: "'12abc'", value: '12abc' },
    { label: "'+-1'", value: '+-1' },
    { label: "'£'", value: '£' },
    { label: 'Arabic-Indic digits', value: '\u0661\u0662\u0663' },
    { label: 'full-width digits', value: '\uFF11\uFF12\uFF13' },
    { label: 'a 64-digit number as text', value: '9'.repeat(64) },
    { label: "'true' as text", value: 'true' },
    // text edge cases
    { label: 'empty text', value: '' },
    { label: 'whitespace only', value: ' \t\n ' },
    { label: 'a lone high surrogate', value: '\uD800' },
    { label: 'a lone low surrogate inside text', value: 'a\uDC00b' },
    { label: 'an RTL override', value: '\u202Egnp.exe' },
    { label: 'zero-width characters', value: '\u200B\u200C\u200D\uFEFF' },
    { label: 'NUL', value: '\u0000' },
    { label: 'NUL inside text', value: 'a\u0000b@example.com' },
    { label: 'combining marks', value: 'e' + '\u0301'.repeat(500) },
    { label: 'an emoji sequence', value: '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}' },
    { label: 'a homoglyph email', value: '\u0430dmin@ex\u0430mple.com' },
    { label: 'CRLF and a header', value: 'x\r\nSet-Cookie: session=stolen' },
    { label: 'markup', value: '<script>alert(1)</script>' },
    { label: 'a MongoDB operator as text', value: '{"$gt":""}' },
    { label: "'$where'", value: '$where' },
    { label: 'a path traversal', value: '../../../etc/passwd' },
    // huge values
    { label: '10,001 characters', value: 'x'.repeat(10_001) },
    { label: '200 KB of text', value: 'x'.repeat(200 * KB) },
    { label: '100 KB of digits and a letter', value: '1'.repeat(100 * KB) + 'x' },
    { label: 'an email-shaped 100 KB', value: 'a@' + '.'.repeat(100 * KB) + '@' },
    { label: '50,000 lone surrogates', value: '\uD800'.repeat(50_000) },
    { label: '10,000 values in an array', value: new Array(10_000).fill(0) },
    // objects where values belong
    { label: '{ $gt: "" }', value: { $gt: '' } },
    { label: '{ $ne: null }', value: { $ne: null } },
    { label: '{ $where }', value: { $where: 'sleep(1000) || true' } },
    { label: '{ $regex }', value: { $regex: '.*' } },
    { label: 'a dotted key', value: { 'a.b': 1 } },
    { label: 'a __proto__ key', value: proto },
    { label: 'a constructor.prototype key', value: { constructor: { prototype: { polluted: true } } } },
    { label: 'a toString key', value: { toString: 'x', valueOf: 1 } },
    { label: 'objects nested 13 deep', value: nestedObjects(13) },
    { label: 'objects nested 1,000 deep', value: nestedObjects(1000) },
    { label: 'arrays nested 1,000 deep', value: nestedArrays(1000) },
    { label: 'a $-key nested deep', value: nestedObjects(5, { $where: '1' }) },
  ];
}

/** Keys added to an object of the body. */
export function hostileKeys(): Array<{ label: string; key: string; value: unknown }> {
  return [
    { label: '$where', key: '$where', value: 'sleep(1000) || true' },
    { label: '$gt', key: '$gt', value: '' },
    { label: '$set', key: '$set', value: { role: 'admin' } },
    { label: '__proto__', key: '__proto__', value: { polluted: true, isAdmin: true } },
    { label: 'constructor', key: 'constructor', value: { prototype: { polluted: true } } },
    { label: 'prototype', key: 'prototype', value: { polluted: true } },
    { label: 'a dotted key', key: 'a.b', value: 1 },
    { label: 'a NUL key', key: 'a\u0000b', value: 1 },
    { label: 'an empty key', key: '', value: 1 },
    { label: 'a 1,000-character key', key: 'k'.repeat(1000), value: 1 },
    { label: 'a lone-surrogate key', key: '\uD800', value: 1 },
  ];
}

/** Hostile values for a path parameter, each already written as it goes in the URL. */
export function hostileSegments(): Array<{ label: string; segment: string }> {
  const enc = (label: string, text: string) => ({ label, segment: encodeSegment(text) });
  const raw = (label: string, segment: string) => ({ label, segment });
  return [
    raw('a dot-dot segment', '..'),
    raw('a dot segment', '.'),
    raw('an encoded dot-dot', '%2e%2e'),
    raw('an overlong UTF-8 dot-dot', '%C0%AE%C0%AE'),
    raw('an encoded slash and dot-dot', '..%2F..%2Fmetrics'),
    raw('an encoded backslash', '..%5C..%5Cmetrics'),
    raw('a bare percent', '%'),
    raw('an invalid escape', '%zz'),
    raw('an encoded NUL', '%00'),
    raw('a lone surrogate (WTF-8)', '%ED%A0%80'),
    raw('invalid UTF-8', '%FF%FE'),
    enc('$where', '$where'),
    enc('an operator object as text', '{"$gt":""}'),
    enc('a bracketed operator', '[$ne]'),
    enc('__proto__', '__proto__'),
    enc('constructor', 'constructor'),
    enc('hasOwnProperty', 'hasOwnProperty'),
    enc('1,000 characters', 'x'.repeat(1000)),
    enc('4,000 characters', 'y'.repeat(4000)),
    enc('unicode: RTL override', '\u202Eabc'),
    enc('unicode: zero-width', '\u200B\u200B'),
    enc('unicode: emoji', '\u{1F4A9}'),
    enc('unicode: full-width digits', '\uFF11\uFF12'),
    enc('NUL inside', 'a\u0000b'),
    enc('a space', ' '),
    enc('a regular expression', '.*'),
    enc('a SQL-ish quote', "' OR 1=1 --"),
    enc('markup', '<script>alert(1)</script>'),
    enc('-1', '-1'),
    enc('1e308', '1e308'),
    enc('NaN', 'NaN'),
    enc('an unknown UUID', '00000000-0000-4000-8000-000000000000'),
    enc('an ObjectId', '507f1f77bcf86cd799439011'),
    enc('CRLF', 'a\r\nx-injected: 1'),
  ];
}

/** Percent-encodes text for a URL segment; a lone surrogate becomes its WTF-8 bytes, as a raw client could send. */
export function encodeSegment(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const char = text[i] as string;
    if (/[A-Za-z0-9\-._~]/.test(char)) {
      out += char;
      continue;
    }
    let codePoint = unit;
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    out += utf8Bytes(codePoint)
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
  }
  return out;
}

function utf8Bytes(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

/** Hostile query strings for a parameter (the whole query, already encoded). */
export function hostileQueries(name: string): Array<{ label: string; query: string }> {
  const n = encodeSegment(name);
  return [
    { label: 'no parameter', query: '' },
    { label: 'empty', query: `${n}=` },
    { label: 'given twice', query: `${n}=a&${n}=b` },
    { label: 'a bracketed operator', query: `${n}[$ne]=x` },
    { label: 'an array', query: `${n}[]=a&${n}[]=b` },
    { label: 'a __proto__ parameter', query: `__proto__[x]=1&${n}=a` },
    { label: 'an encoded NUL', query: `${n}=%00` },
    { label: 'a lone surrogate (WTF-8)', query: `${n}=%ED%A0%80` },
    { label: 'an invalid escape', query: `${n}=%zz` },
    { label: '201 characters', query: `${n}=${'t'.repeat(201)}` },
    { label: '8,000 characters', query: `${n}=${'t'.repeat(8000)}` },
    { label: 'an operator as text', query: `${n}=${encodeSegment('{"$gt":""}')}` },
    { label: 'whitespace', query: `${n}=%20%09` },
    { label: 'unicode: RTL override and zero-width', query: `${n}=${encodeSegment('\u202E\u200Babc')}` },
  ];
}
