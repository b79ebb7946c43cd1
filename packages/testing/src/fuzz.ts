import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Connection } from 'mongoose';

/**
 * Schema-driven fuzzing of a service's HTTP routes (issue 13, 'Beyond the list'). Given the zod schema
 * a route parses and a valid example, it derives bad inputs (wrong types, huge values, `$`-keys,
 * `__proto__` and `constructor` keys, unicode edge cases, deep nesting, malformed JSON, hostile path
 * parameters), asks the schema itself which of them it refuses, and sends them as raw HTTP so nothing
 * on the way normalises them. Everything is drawn from a seeded generator: a failure names its seed
 * and reproduces. The schema is walked generically through `schema._zod.def`, as
 * packages/contracts/test/request-schemas-redos.unit.test.ts does.
 */

// ------------------------------------------------------------------------------------------ random

/** A small seeded generator (mulberry32): the same seed gives the same cases. */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}

/** The seed a fuzz file runs with: FUZZ_SEED when set (to replay a failure), else the file's own. */
export function fuzzSeed(fallback: number): number {
  const given = Number(process.env.FUZZ_SEED);
  return Number.isInteger(given) && given > 0 ? given : fallback;
}

// ------------------------------------------------------------------------------------------ values

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

function nestedObjects(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const KB = 1024;

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

// ------------------------------------------------------------------------------------------ schema

export type FuzzPath = Array<string | number>;
/** What the generator needs of a zod schema: it is walked through `_zod.def` when it has one. */
export type FuzzSchema = { safeParse(value: unknown): { success: boolean } };

/** Every field path of a schema: object properties at any depth, array elements as index 0. */
export function schemaFieldPaths(
  schema: unknown,
  prefix: FuzzPath = [],
  seen = new Set<unknown>(),
): FuzzPath[] {
  const def = (schema as { _zod?: { def?: Record<string, any> } } | undefined)?._zod?.def;
  if (!def || seen.has(schema)) return [];
  seen.add(schema);
  switch (def.type) {
    case 'object': {
      const paths: FuzzPath[] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        paths.push([...prefix, key]);
        paths.push(...schemaFieldPaths(field, [...prefix, key], seen));
      }
      return paths;
    }
    case 'array':
      return [[...prefix, 0], ...schemaFieldPaths(def.element, [...prefix, 0], seen)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return schemaFieldPaths(def.innerType, prefix, seen);
    case 'pipe':
      return [...schemaFieldPaths(def.in, prefix, seen), ...schemaFieldPaths(def.out, prefix, seen)];
    case 'union':
      return (def.options as unknown[]).flatMap((option) => schemaFieldPaths(option, prefix, seen));
    case 'intersection':
      return [...schemaFieldPaths(def.left, prefix, seen), ...schemaFieldPaths(def.right, prefix, seen)];
    default:
      return [];
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RawJson);

/** Field paths of an example value, to a few levels (free-form JSON fields have no schema shape). */
function examplePaths(value: unknown, prefix: FuzzPath = [], depth = 3): FuzzPath[] {
  if (depth === 0) return [];
  if (Array.isArray(value))
    return value.length ? [[...prefix, 0], ...examplePaths(value[0], [...prefix, 0], depth - 1)] : [];
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, field]) => [
    [...prefix, key],
    ...examplePaths(field, [...prefix, key], depth - 1),
  ]);
}

/** Paths of the example that hold objects (the body itself included): where keys are injected. */
function objectPaths(value: unknown, prefix: FuzzPath = [], depth = 3): FuzzPath[] {
  if (!isPlainObject(value) || depth === 0) return [];
  return [
    prefix,
    ...Object.entries(value).flatMap(([key, field]) => objectPaths(field, [...prefix, key], depth - 1)),
  ];
}

const pathLabel = (path: FuzzPath) => (path.length ? path.join('.') : 'the body');

const uniquePaths = (paths: FuzzPath[]) => [...new Map(paths.map((p) => [p.join('\u0001'), p])).values()];

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A copy of the example with the value at the path replaced (missing containers are made). */
export function withValueAt(example: unknown, path: FuzzPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const root = clone(example);
  const [head, ...rest] = path;
  const container: any =
    isPlainObject(root) || Array.isArray(root) ? root : typeof head === 'number' ? [] : {};
  let node = container;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string | number;
    const next = path[i + 1];
    if (!isPlainObject(node[key]) && !Array.isArray(node[key]))
      node[key] = typeof next === 'number' ? [] : {};
    node = node[key];
  }
  const last = rest.length ? rest[rest.length - 1] : head;
  if (typeof last === 'string' && (last === '__proto__' || last === 'constructor'))
    withOwnKey(node, last, value);
  else node[last as string | number] = value;
  return container;
}

function withoutValueAt(example: unknown, path: FuzzPath): unknown {
  const root = clone(example);
  let node: any = root;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return root;
    node = node[key as string | number];
  }
  if (node !== null && typeof node === 'object') delete node[path[path.length - 1] as string | number];
  return root;
}

function withKeyAt(example: unknown, path: FuzzPath, key: string, value: unknown): unknown {
  const root = clone(example);
  let node: any = root;
  for (const part of path) node = node[part as string | number];
  withOwnKey(node, key, value);
  return root;
}

// ------------------------------------------------------------------------------------------ cases

/** One request body: its text as sent, its content type, and what the service's parser will make of it. */
export interface FuzzBody {
  group: 'field' | 'missing' | 'key' | 'whole' | 'raw';
  label: string;
  text: string;
  contentType: string;
}

const JSON_TYPE = 'application/json';

/** The value the service's body parser makes of a body; `unparsable` when it answers 4xx itself. */
export function parsedBody(body: FuzzBody): { value: unknown } | 'unparsable' {
  const media = body.contentType.split(';')[0]?.trim().toLowerCase();
  // Over the services' 1 MB body limit: a 413 whatever the route.
  if (Buffer.byteLength(body.text) > 1024 * 1024) return 'unparsable';
  if (media === 'text/plain') return { value: body.text };
  // Fastify's JSON parser drops a leading byte-order mark.
  const text = body.text.replace(/^\uFEFF/, '');
  if (media !== JSON_TYPE || text === '') return 'unparsable';
  // Fastify refuses these keys outright (onProtoPoisoning / onConstructorPoisoning 'error').
  if (/"(__proto__|constructor)"\s*:/.test(text)) {
    try {
      JSON.parse(text, function (key, value) {
        if (key === '__proto__' || (key === 'constructor' && isPlainObject(value) && 'prototype' in value))
          throw new Error('poisoned');
        return value;
      });
    } catch {
      return 'unparsable';
    }
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return 'unparsable';
  }
}

/** Bodies no route takes as JSON, whatever its schema: malformed, mistyped, oversized or far too deep. */
export function rawBodies(example: unknown): FuzzBody[] {
  const exampleText = toJsonText(example ?? {});
  const raw = (label: string, text: string, contentType = JSON_TYPE): FuzzBody => ({
    group: 'raw',
    label,
    text,
    contentType,
  });
  const firstKey = isPlainObject(example) ? Object.keys(example)[0] : undefined;
  return [
    raw('malformed JSON: an open brace', '{'),
    raw('malformed JSON: a missing value', '{"a":}'),
    raw('malformed JSON: single quotes', "{'a':1}"),
    raw('malformed JSON: trailing garbage', `${exampleText}garbage`),
    raw('malformed JSON: NaN', '{"a":NaN}'),
    raw('malformed JSON: a raw control character', '{"a":"\u0001"}'),
    raw('an empty JSON body', ''),
    raw('the JSON literal null', 'null'),
    raw('a JSON string', '"text"'),
    raw('a JSON number, 1e309', '1e309'),
    raw('a JSON array of the example', `[${exampleText}]`),
    raw('a byte-order mark before the JSON', `\uFEFF${exampleText}`),
    raw('a __proto__ key at the top', `{"__proto__":{"polluted":true},${exampleText.slice(1)}`),
    raw(
      'duplicate keys, the last an operator',
      firstKey
        ? `${exampleText.slice(0, -1)},${JSON.stringify(firstKey)}:{"$gt":""}}`
        : '{"a":1,"a":{"$gt":""}}',
    ),
    raw('arrays nested 100,000 deep', '['.repeat(100_000) + ']'.repeat(100_000)),
    raw('objects nested 50,000 deep', '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)),
    raw(
      'a __proto__ key 20,000 objects deep',
      '{"a":'.repeat(20_000) + '{"__proto__":{"x":1}}' + '}'.repeat(20_000),
    ),
    raw('a body over 1 MB', `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`),
    raw('the example as text/plain', exampleText, 'text/plain'),
    raw('the example as a form', 'a=1&b=2', 'application/x-www-form-urlencoded'),
    raw('the example as multipart', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'),
    raw('the example as XML', '<a>1</a>', 'application/xml'),
    raw('JSON in UTF-16', exampleText, 'application/json; charset=utf-16'),
  ];
}

/** A derived body whose text is written only when it is read (most candidates never are). */
function lazyBody(group: FuzzBody['group'], label: string, make: () => unknown): FuzzBody {
  let text: string | undefined;
  return {
    group,
    label,
    contentType: JSON_TYPE,
    get text() {
      text ??= toJsonText(make());
      return text;
    },
  };
}

let hostileValueCache: Array<{ label: string; value: unknown }> | undefined;
let hostileKeyCache: Array<{ label: string; key: string; value: unknown }> | undefined;

/** Every derived body of a route: whole-body swaps, field mutations, missing fields and injected keys. */
export function bodyCandidates(schema: unknown, example: unknown): FuzzBody[] {
  const values = (hostileValueCache ??= hostileValues());
  const keys = (hostileKeyCache ??= hostileKeys());
  const candidates: FuzzBody[] = [];
  const whole: Array<[string, () => unknown]> = [
    ['an empty object', () => ({})],
    ['an empty array', () => []],
    ['an array of the example', () => [example]],
    ['a number', () => 42],
    ['true', () => true],
    ['text', () => 'text'],
    ['200 KB of text', () => 'x'.repeat(200 * KB)],
    ['objects nested 2,000 deep', () => nestedObjects(2000)],
    [
      'an object of 20,000 keys',
      () => Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])),
    ],
  ];
  for (const [label, make] of whole) candidates.push(lazyBody('whole', `the body is ${label}`, make));

  const paths = uniquePaths([...schemaFieldPaths(schema), ...examplePaths(example)]);
  for (const path of paths) {
    for (const { label, value } of values)
      candidates.push(
        lazyBody('field', `${pathLabel(path)} = ${label}`, () => withValueAt(example, path, value)),
      );
    candidates.push(lazyBody('missing', `without ${pathLabel(path)}`, () => withoutValueAt(example, path)));
  }
  for (const path of objectPaths(example)) {
    for (const { label, key, value } of keys)
      candidates.push(
        lazyBody('key', `${pathLabel(path)} + key ${label}`, () => withKeyAt(example, path, key, value)),
      );
  }
  return candidates;
}

/** What a route makes of a body: true when its schema takes it (so a refusal is not required). */
export type BodyOracle = (value: unknown) => boolean;

/** What a declared route's validation takes (service-kit's `declaredSchemaValidator`): no body is {}, a non-object is refused. */
export function objectBodyOracle(schema: FuzzSchema): BodyOracle {
  return (value) =>
    value === null || value === undefined
      ? schema.safeParse({}).success
      : isPlainObject(value) && schema.safeParse(value).success;
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

// ------------------------------------------------------------------------------------------ routes

/** A route to fuzz: how it is called validly, and what its body schema takes. */
export interface FuzzRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  /** The path with `:param`s, as the service registers it. */
  path: string;
  /** Values for the path's parameters that reach the handler (an existing id, a real offer index). */
  params?: Record<string, string>;
  /** The body: a valid example and which derived bodies the route takes. Absent: the route reads none. */
  body?: { examples: unknown[]; schema?: unknown; accepts: BodyOracle };
  /** A query parameter to fuzz (the route reads it with a schema). */
  queryParam?: string;
  /** Whether an answer counts as a refusal; a 4xx by default. */
  refused?: (status: number) => boolean;
}

/** One request of a fuzz run. `mustRefuse`: the schema refuses it, so the route must answer 4xx. */
export interface FuzzCase {
  route: string;
  label: string;
  method: string;
  path: string;
  contentType?: string;
  body?: string;
  mustRefuse: boolean;
  refused: (status: number) => boolean;
}

export interface FuzzBudget {
  /** Most body cases the schema refuses, per route. */
  refusedBodies: number;
  /** Most body cases the schema takes anyway (sent too: they must not fail with a 5xx), per route. */
  toleratedBodies: number;
  /** Hostile values per path parameter. */
  segments: number;
}

const isClientError = (status: number) => status >= 400 && status < 500;

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(
    /:([A-Za-z]+)/g,
    (_m, name: string) => params[name] ?? encodeSegment(`missing-${name}`),
  );
}

/**
 * The cases of one route, drawn with the seeded generator: raw and whole-body cases first (a few),
 * then field mutations round-robin over the fields so every field is hit, path parameters and the
 * query last. Only bodies the route's oracle refuses are `mustRefuse`; a few it takes are kept too.
 */
export function routeCases(route: FuzzRoute, random: SeededRandom, budget: FuzzBudget): FuzzCase[] {
  const name = `${route.method} ${route.path}`;
  const refused = route.refused ?? isClientError;
  const params = route.params ?? {};
  const validPath = fillPath(route.path, params);
  const cases: FuzzCase[] = [];
  const examples = route.body?.examples ?? [{}];
  const accepts: BodyOracle = route.body?.accepts ?? (() => true);
  const schema = route.body?.schema;
  const mustRefuseCases: FuzzCase[] = [];
  const tolerated: FuzzCase[] = [];
  // A GET's body is never read: only its path and query are fuzzed.
  for (const example of route.method === 'GET' ? [] : examples) {
    const share = (n: number) => Math.ceil(n / examples.length);
    let refusedLeft = share(budget.refusedBodies);
    let toleratedLeft = share(budget.toleratedBodies);
    // A route that reads no body gets every raw case; others a share, beside their derived bodies.
    const rawCount = route.body ? Math.max(6, Math.floor(refusedLeft / 5)) : Infinity;
    const raw = random.shuffle(rawBodies(example)).slice(0, rawCount);
    // Without a body schema only the raw cases apply: the route reads no fields.
    const derived = route.body ? bodyCandidates(schema, example) : [];
    const whole = random.shuffle(derived.filter((c) => c.group === 'whole')).slice(0, 4);
    // Field cases round-robin over the fields, so that every field is hit before any is hit twice.
    const byField = new Map<string, FuzzBody[]>();
    for (const candidate of random.shuffle(derived.filter((c) => c.group !== 'whole'))) {
      const field = candidate.label.replace(/^without /, '').split(/ = | \+ key /)[0] ?? '';
      byField.set(field, [...(byField.get(field) ?? []), candidate]);
    }
    const ordered: FuzzBody[] = [...raw, ...whole];
    const queues = random.shuffle([...byField.values()]);
    for (let round = 0; queues.some((q) => q.length > round); round++)
      for (const queue of queues) if (queue[round]) ordered.push(queue[round] as FuzzBody);

    for (const body of ordered) {
      if (refusedLeft <= 0 && toleratedLeft <= 0) break;
      const parsed = parsedBody(body);
      const taken = parsed !== 'unparsable' && accepts(parsed.value);
      if (taken ? toleratedLeft <= 0 : refusedLeft <= 0) continue;
      if (taken) toleratedLeft -= 1;
      else refusedLeft -= 1;
      (taken ? tolerated : mustRefuseCases).push({
        route: name,
        label: `body: ${body.label}`,
        method: route.method,
        path: validPath,
        contentType: body.contentType,
        body: body.text,
        mustRefuse: !taken,
        refused,
      });
    }
  }
  cases.push(...mustRefuseCases);

  const validBody = route.body ? toJsonText(examples[0]) : undefined;
  for (const param of Object.keys(route.path.match(/:[A-Za-z]+/g) ? params : {})) {
    for (const { label, segment } of random.shuffle(hostileSegments()).slice(0, budget.segments)) {
      cases.push({
        route: name,
        label: `:${param} = ${label}`,
        method: route.method,
        path: fillPath(route.path, { ...params, [param]: segment }),
        contentType: validBody === undefined ? undefined : JSON_TYPE,
        body: validBody,
        mustRefuse: true,
        refused,
      });
    }
  }
  if (route.queryParam) {
    for (const { label, query } of hostileQueries(route.queryParam)) {
      cases.push({
        route: name,
        label: `?${route.queryParam}: ${label}`,
        method: route.method,
        path: `${validPath}${query ? `?${query}` : ''}`,
        mustRefuse: true,
        refused,
      });
    }
  }
  // Tolerated bodies go last: they may change state, and never before the refusals are checked.
  cases.push(...tolerated);
  return cases;
}

// ------------------------------------------------------------------------------------------ sending

export interface FuzzAnswer {
  case: FuzzCase;
  /** 0 when no answer came (connection reset, timeout). */
  status: number;
  text: string;
  error?: string;
}

/** Sends one case as raw HTTP (the path and body exactly as generated), never throwing. */
export function sendCase(
  baseUrl: string,
  fuzzCase: FuzzCase,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Omit<FuzzAnswer, 'case'>) => {
      if (settled) return;
      settled = true;
      resolve({ case: fuzzCase, ...answer });
    };
    const body = fuzzCase.body === undefined ? undefined : Buffer.from(fuzzCase.body, 'utf8');
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: fuzzCase.method,
        path: fuzzCase.path,
        agent: false,
        headers: {
          accept: 'application/json',
          ...headers,
          ...(fuzzCase.contentType ? { 'content-type': fuzzCase.contentType } : {}),
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', (err) =>
          done({ status: response.statusCode ?? 0, text: '', error: err.message }),
        );
      },
    );
    request.setTimeout(timeoutMs, () => {
      done({ status: 0, text: '', error: `no answer within ${timeoutMs} ms` });
      request.destroy();
    });
    // A server that answers early (413) may close while the body is still being written.
    request.on('error', (err) => setTimeout(() => done({ status: 0, text: '', error: err.message }), 50));
    if (body) request.write(body);
    request.end();
  });
}

const excerpt = (text: string | undefined, max = 160) => {
  if (text === undefined) return '(none)';
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return text.length > max ? `${shown} (${text.length} chars)` : shown;
};

/** A failure as one line: the route, the case, the input and the answer. */
export function describeAnswer(answer: FuzzAnswer): string {
  const c = answer.case;
  return (
    `${c.method} ${excerpt(c.path, 120)} [${c.label}] body=${excerpt(c.body)} → ` +
    `${answer.status || answer.error} ${excerpt(answer.text)}`
  );
}

/** Whether an answer breaks the rules: a 5xx or no answer at all, or a non-refusal of a refused input. */
export function isFailure(answer: FuzzAnswer): boolean {
  if (answer.status === 0 || answer.status >= 500) return true;
  return answer.case.mustRefuse && !answer.case.refused(answer.status);
}

/** Sends the cases one at a time; the failures as lines (empty when all went well). */
export async function runCases(
  baseUrl: string,
  cases: FuzzCase[],
  headers: Record<string, string> = {},
): Promise<{ answers: FuzzAnswer[]; failures: string[] }> {
  const answers: FuzzAnswer[] = [];
  for (const fuzzCase of cases) answers.push(await sendCase(baseUrl, fuzzCase, headers));
  return { answers, failures: answers.filter(isFailure).map(describeAnswer) };
}

// ------------------------------------------------------------------------------------------ storage

/**
 * A fingerprint of a service's database: per collection, the number of documents and a hash of all of
 * them (in `_id` order). Collections in `idsOnly` (an outbox a relay marks as published) are compared
 * by their ids alone; those in `ignore` (a relay's lease, renewed all the time) not at all.
 */
export async function databaseFingerprint(
  connection: Connection,
  opts: { idsOnly?: string[]; ignore?: string[] } = {},
): Promise<Record<string, string>> {
  const db = connection.db;
  if (!db) throw new Error('the connection is not open');
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.') && !opts.ignore?.includes(name))
    .sort();
  const fingerprint: Record<string, string> = {};
  for (const name of names) {
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    const compared = opts.idsOnly?.includes(name) ? docs.map((doc) => doc._id) : docs;
    const hash = createHash('sha256').update(JSON.stringify(compared)).digest('hex').slice(0, 16);
    fingerprint[name] = `${docs.length} documents, ${hash}`;
  }
  return fingerprint;
}

/** Waits until the fingerprint holds still (relays and consumers done), and answers it. */
export async function settledFingerprint(
  read: () => Promise<Record<string, string>>,
  timeoutMs = 10_000,
  intervalMs = 300,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify(await read());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = await read();
    if (JSON.stringify(now) === last) return now;
    if (Date.now() > deadline) {
      const before = JSON.parse(last) as Record<string, string>;
      const moving = Object.keys(now).filter((name) => now[name] !== before[name]);
      throw new Error(`the database did not settle: ${moving.join(', ')} kept changing`);
    }
    last = JSON.stringify(now);
  }
}

/** Keys of stored documents that must never be stored: `$…`, dotted, NUL, `__proto__`, `constructor`. */
export async function unsafeStoredKeys(connection: Connection): Promise<string[]> {
  const db = connection.db;
  if (!db) throw new Error('the connection is not open');
  const found: string[] = [];
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of names) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      const stack: Array<{ value: unknown; path: string }> = [
        { value: doc, path: `${name}/${String(doc._id)}` },
      ];
      while (stack.length) {
        const { value, path } = stack.pop() as { value: unknown; path: string };
        if (Array.isArray(value))
          value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
        else if (isPlainObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
          for (const key of Object.keys(value)) {
            if (
              key.startsWith('$') ||
              key.includes('.') ||
              key.includes('\u0000') ||
              key === '__proto__' ||
              key === 'constructor'
            )
              found.push(`${path}.${key}`);
            stack.push({ value: value[key], path: `${path}.${key}` });
          }
        }
      }
    }
  }
  return found;
}

/** Adds the answers' statuses to a tally (for the summary line a fuzz file prints). */
export function tallyStatuses(answers: FuzzAnswer[], tally: Record<string, number>): void {
  for (const answer of answers) {
    const key = String(answer.status || 'none');
    tally[key] = (tally[key] ?? 0) + 1;
  }
}

// ------------------------------------------------------------------------------------------ suite

/** What a fuzz file's setup hands the suite: where to send, as whom, and how to read the database. */
export interface FuzzTarget<C> {
  ctx: C;
  /** The service itself (requests go straight to it, identity headers and internal secret included). */
  serviceUrl: string;
  /** Headers per caller a route names (`as`); `user` is the default caller. */
  callers: Record<string, Record<string, string>>;
  /** The gateway in front, and the headers (session cookie, same-origin) per caller, for a sample of cases. */
  gateway?: { url: string; callers: Record<string, Record<string, string>> };
  /** A fingerprint of everything the service stores (documents per collection, hashed). */
  fingerprint(): Promise<Record<string, string>>;
  /** Keys that must never be stored, found in the service's documents. */
  unsafeKeys(): Promise<string[]>;
  close(): Promise<void>;
}

export interface FuzzSuite<C> {
  service: string;
  seed: number;
  budget: FuzzBudget;
  /** [title, caller, route]: the caller is a key of the target's `callers`. */
  routes: Array<[string, string, (ctx: C) => FuzzRoute]>;
  setup(): Promise<FuzzTarget<C>>;
  /** One in how many refused cases is sent again through the gateway (0: none). */
  gatewayEvery?: number;
  /** More tests in the same describe, on the same target (known bugs as `it.failing`). */
  more?: (target: () => FuzzTarget<C>) => void;
}

/**
 * The fuzz tests of one service: per route, every bad input is answered 4xx (never 5xx) and the
 * database is unchanged afterwards; then the inputs the schemas take anyway are answered without a
 * 5xx, and no stored document holds a `$`, dotted, NUL, `__proto__` or `constructor` key.
 */
export function describeFuzz<C>(suite: FuzzSuite<C>): void {
  const routeSeed = (name: string) =>
    [...name].reduce((hash, c) => (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0, suite.seed);
  const every = suite.gatewayEvery ?? 5;

  describe(`${suite.service} under fuzzed input (seed ${suite.seed})`, () => {
    let target: FuzzTarget<C>;
    const statuses: Record<string, number> = {};
    const started = Date.now();

    beforeAll(async () => {
      target = await suite.setup();
    });

    afterAll(async () => {
      const total = Object.values(statuses).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `[fuzz] ${suite.service}: ${total} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
          `seed ${suite.seed}, statuses ${JSON.stringify(statuses)}\n`,
      );
      await target?.close();
    });

    const casesOf = (name: string, make: (ctx: C) => FuzzRoute) =>
      routeCases(make(target.ctx), new SeededRandom(routeSeed(name)), suite.budget);

    it.each(suite.routes)(
      '%s (as %s) refuses every bad input with a 4xx and stores nothing',
      async (name, caller, make) => {
        const refusals = casesOf(name, make).filter((c) => c.mustRefuse);
        expect(refusals.length).toBeGreaterThan(3);
        const headers = target.callers[caller];
        if (!headers) throw new Error(`no caller ${caller}`);
        const before = await target.fingerprint();
        if (process.env.FUZZ_TRACE) {
          // Which case stored something: a fingerprint after every request (slow; to find a culprit).
          const stored: string[] = [];
          let last = JSON.stringify(before);
          const traced: Array<[string, FuzzCase, Record<string, string>]> = [
            ...refusals.map((c): [string, FuzzCase, Record<string, string>] => [
              target.serviceUrl,
              c,
              headers,
            ]),
            ...(target.gateway ? refusals : []).map((c): [string, FuzzCase, Record<string, string>] => [
              target.gateway!.url,
              c,
              target.gateway!.callers[caller] ?? {},
            ]),
          ];
          for (const [url, fuzzCase, sentHeaders] of traced) {
            const answer = await sendCase(url, fuzzCase, sentHeaders);
            const now = JSON.stringify(await target.fingerprint());
            if (now !== last)
              stored.push(`${url === target.serviceUrl ? '' : 'via the gateway: '}${describeAnswer(answer)}`);
            last = now;
          }
          expect(stored).toEqual([]);
        }
        const direct = await runCases(target.serviceUrl, refusals, headers);
        const sample = every ? refusals.filter((_c, i) => i % every === 0) : [];
        const viaGateway = target.gateway
          ? await runCases(target.gateway.url, sample, target.gateway.callers[caller] ?? {})
          : { answers: [], failures: [] };
        tallyStatuses([...direct.answers, ...viaGateway.answers], statuses);
        expect(direct.failures).toEqual([]);
        expect(viaGateway.failures).toEqual([]);
        expect(await target.fingerprint()).toEqual(before);
      },
    );

    it('answers the inputs the schemas take without a 5xx, and stores no unsafe key', async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const [name, caller, make] of suite.routes) {
        const tolerated = casesOf(name, make).filter((c) => !c.mustRefuse);
        const result = await runCases(target.serviceUrl, tolerated, target.callers[caller] ?? {});
        tallyStatuses(result.answers, statuses);
        failures.push(...result.failures);
        sent += tolerated.length;
      }
      expect(sent).toBeGreaterThan(0);
      expect(failures).toEqual([]);
      expect(await target.unsafeKeys()).toEqual([]);
    });

    suite.more?.(() => target);
  });
}
