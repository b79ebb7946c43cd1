import { z } from 'zod';
import { exampleOf } from '../src/compat/examples';
import type { JsonSchema } from '../src/compat/json-schema';
import { EVENT_SCHEMAS } from '../src/events/schemas';

const json = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

describe('example payloads from a JSON Schema', () => {
  const schema = z.object({
    id: z.string().uuid(),
    at: z.string().datetime(),
    url: z.string().url(),
    code: z.string().min(20).max(24),
    count: z.number().int().positive().max(3),
    share: z.number().gt(0.5).lt(1),
    kind: z.enum(['targeted', 'open']),
    note: z.string().nullable(),
    extra: z.string().optional(),
    tags: z.array(z.string()).min(2),
    byKey: z.record(z.enum(['a', 'b']), z.boolean()),
  });

  it('writes a full example that the schema accepts, with every optional field', () => {
    const full = exampleOf(json(schema), 'full') as Record<string, unknown>;
    expect(schema.parse(full)).toEqual(full);
    expect(full.extra).toEqual(expect.any(String));
    expect(full.note).toEqual(expect.any(String));
    expect(full.kind).toBe('targeted');
  });

  it('writes a minimal example without the optional fields, null where null is allowed', () => {
    const minimal = exampleOf(json(schema), 'minimal') as Record<string, unknown>;
    expect(schema.parse(minimal)).toEqual(minimal);
    expect('extra' in minimal).toBe(false);
    expect(minimal.note).toBeNull();
    expect(minimal.tags).toHaveLength(2);
  });

  it('is deterministic', () => {
    expect(exampleOf(json(schema), 'full')).toEqual(exampleOf(json(schema), 'full'));
  });

  it('writes examples every event payload schema of the catalogue accepts', () => {
    for (const [type, versions] of Object.entries(EVENT_SCHEMAS)) {
      for (const [version, payload] of Object.entries(versions)) {
        for (const shape of ['full', 'minimal'] as const) {
          const result = payload.safeParse(exampleOf(json(payload), shape));
          expect({ type, version, shape, issues: result.error?.issues ?? [] }).toEqual({
            type,
            version,
            shape,
            issues: [],
          });
        }
      }
    }
  });
});
