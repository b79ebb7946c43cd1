// Request bodies derived from a route's zod schema and a valid example: the schema is walked
// generically through `schema._zod.def` (as packages/contracts/test/request-schemas-redos.unit.test.ts
// does), each field is given hostile values, removed, or has keys injected beside it; raw bodies are
// malformed, mistyped, oversized or too deep. `parsedBody` says what the service's parser makes of one.
import { KB, RawJson, hostileKeys, hostileValues, nestedObjects, toJsonText, withOwnKey } from './values';

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

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
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

/** One request body: its text as sent, its content type, and what the service's parser will make of it. */
export interface FuzzBody {
  group: 'field' | 'missing' | 'key' | 'whole' | 'raw';
  label: string;
  text: string;
  contentType: string;
}

export const JSON_TYPE = 'application/json';

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
