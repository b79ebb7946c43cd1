import { z } from 'zod';

/**
 * The part of JSON Schema (draft 2020-12) zod's `z.toJSONSchema` writes, read structurally: what the
 * compatibility check and the example generator need to walk a schema.
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * A zod schema's JSON Schema (draft 2020-12) without its `$schema` dialect: request parts as the
 * caller sends them (`io: 'input'`), answers and events as they are sent (`io: 'output'`).
 * Transforms and preprocessing have no JSON Schema; they stand as "any value" on that side.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** Keywords that describe a value without constraining it. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'id',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
]);

export const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when the schema accepts every value (`{}`, `true`, or only annotations). */
export function acceptsAnything(schema: unknown): boolean {
  if (schema === true || schema === undefined) return true;
  if (!isSchema(schema)) return false;
  return Object.keys(schema).every((keyword) => ANNOTATIONS.has(keyword));
}

/** A `$ref` into the root's `$defs` replaced by what it names (zod writes refs only for recursion or reuse). */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref = current.$ref as string;
    if (ref === '#') return root;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = match ? (root[match[1]!] as Record<string, JsonSchema> | undefined) : undefined;
    const target = match && defs ? defs[decodeURIComponent(match[2]!)] : undefined;
    if (!target) throw new Error(`unresolvable $ref ${ref}`);
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

/** The branches of a union (`anyOf` or `oneOf`), or null when the schema is not one. */
export function unionBranches(schema: JsonSchema): JsonSchema[] | null {
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) ? (branches as JsonSchema[]) : null;
}

const typeOfValue = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;

/** The JSON types a simple (non-union) schema allows, or null for any type. */
export function typesOf(schema: JsonSchema): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const values = enumValues(schema);
  if (values) return [...new Set(values.map(typeOfValue))];
  if (isSchema(schema.properties) || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  return null;
}

/** The values an `enum` or `const` allows, or null when it lists none. */
export function enumValues(schema: JsonSchema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  if ('const' in schema) return [schema.const];
  return null;
}

/** Whether a value of JSON type `written` is of type `allowed` (an integer is a number). */
export const typeFits = (written: string, allowed: string) =>
  written === allowed || (written === 'integer' && allowed === 'number');
