import {
  type JsonSchema,
  acceptsAnything,
  enumValues,
  isSchema,
  resolveRef,
  typesOf,
  unionBranches,
} from './json-schema';

/**
 * A deterministic example value of a JSON Schema, as a writer of it could have sent: `full` fills
 * every optional field and picks the first non-null branch of a union; `minimal` leaves every optional
 * field out and picks null where null is allowed. The release keeps both for each event, so a
 * consumer's tests read what a producer of the release could write, at both ends.
 */
export type ExampleShape = 'full' | 'minimal';

/** Values for the string formats zod writes. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2026-01-02T03:04:05.000Z',
  date: '2026-01-02',
  time: '03:04:05',
  uuid: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  email: 'reader@example.com',
  uri: 'https://example.com/released',
  url: 'https://example.com/released',
};

export function exampleOf(schema: JsonSchema, shape: ExampleShape): unknown {
  return example(schema, schema, shape, 0);
}

function example(schemaIn: unknown, root: JsonSchema, shape: ExampleShape, depth: number): unknown {
  if (acceptsAnything(schemaIn) || !isSchema(schemaIn)) return shape === 'full' ? 'any' : null;
  if (depth > 24) throw new Error('the schema is deeper than an example can follow');
  const schema = resolveRef(schemaIn, root);
  if (schema.default !== undefined && shape === 'minimal') return schema.default;
  const branches = unionBranches(schema);
  if (branches) {
    const isNull = (b: JsonSchema) => typesOf(resolveRef(b, root))?.join() === 'null';
    const nonNull = branches.find((b) => !isNull(b));
    const chosen = shape === 'minimal' ? (branches.find(isNull) ?? branches[0]) : (nonNull ?? branches[0]);
    return example(chosen, root, shape, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign(
      {},
      ...(schema.allOf as JsonSchema[]).map((m) => example(m, root, shape, depth + 1)),
    );
  }
  const values = enumValues(schema);
  if (values) return values[0];
  const types = typesOf(schema) ?? [];
  const type =
    shape === 'minimal' && types.includes('null') ? 'null' : (types.find((t) => t !== 'null') ?? types[0]);
  switch (type) {
    case 'string':
      return stringExample(schema);
    case 'integer':
    case 'number':
      return numberExample(schema, type === 'integer');
    case 'boolean':
      return shape === 'full';
    case 'null':
      return null;
    case 'array': {
      const min = (schema.minItems as number | undefined) ?? 0;
      const max = (schema.maxItems as number | undefined) ?? Number.POSITIVE_INFINITY;
      const count = Math.min(max, Math.max(min, shape === 'full' ? 1 : 0));
      return Array.from({ length: count }, () => example(schema.items ?? {}, root, shape, depth + 1));
    }
    case 'object':
      return objectExample(schema, root, shape, depth);
    default:
      return shape === 'full' ? 'any' : null;
  }
}

function stringExample(schema: JsonSchema): string {
  const format = schema.format as string | undefined;
  if (format && FORMAT_EXAMPLES[format]) return FORMAT_EXAMPLES[format]!;
  const min = (schema.minLength as number | undefined) ?? 1;
  const max = (schema.maxLength as number | undefined) ?? Math.max(min, 8);
  const text = 'released-example'.padEnd(min, 'x');
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const fits = (value: number) =>
    !(typeof schema.minimum === 'number' && value < schema.minimum) &&
    !(typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) &&
    !(typeof schema.maximum === 'number' && value > schema.maximum) &&
    !(typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) &&
    !(typeof schema.multipleOf === 'number' && !Number.isInteger(value / schema.multipleOf)) &&
    (!integer || Number.isInteger(value));
  const lows = [schema.minimum, schema.exclusiveMinimum].filter((v): v is number => typeof v === 'number');
  const highs = [schema.maximum, schema.exclusiveMaximum].filter((v): v is number => typeof v === 'number');
  const low = lows.length > 0 ? Math.max(...lows) : null;
  const high = highs.length > 0 ? Math.min(...highs) : null;
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : 1;
  const candidates = [
    2,
    ...(low !== null ? [Math.ceil(low / step) * step, (Math.floor(low / step) + 1) * step] : []),
    ...(low !== null && high !== null ? [(low + high) / 2] : []),
    ...(high !== null ? [Math.floor(high / step) * step, (Math.ceil(high / step) - 1) * step] : []),
  ];
  const value = candidates.find(fits);
  if (value === undefined) throw new Error(`no example number within ${JSON.stringify(schema)}`);
  return value;
}

function objectExample(schema: JsonSchema, root: JsonSchema, shape: ExampleShape, depth: number) {
  const properties = (isSchema(schema.properties) ? schema.properties : {}) as Record<string, unknown>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (shape === 'minimal' && !required.has(name)) continue;
    out[name] = example(property, root, shape, depth + 1);
  }
  // A record: its required keys (an enum of keys), else one entry in the full example.
  if (isSchema(schema.additionalProperties)) {
    const keys = [...required].filter((name) => !(name in properties));
    const keyValues = isSchema(schema.propertyNames) ? enumValues(schema.propertyNames) : null;
    if (keys.length === 0 && shape === 'full') keys.push(String(keyValues?.[0] ?? 'key'));
    for (const key of keys) out[key] = example(schema.additionalProperties, root, shape, depth + 1);
  }
  return out;
}
