import type { z } from 'zod';
import { badRequest } from './errors';

/**
 * Parses a body, query or params object with a contracts schema. The first problem becomes the
 * error message (the spec's own wording lives in the schemas); every problem is listed in `fields`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  const first = result.error.issues[0];
  throw badRequest(first?.message ?? 'Invalid request', { fields });
}

/** A JSON object body, or none (an empty object); an array, a string or a number is a clear 400. */
export function requireJsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw badRequest('The request body must be a JSON object');
  return body as Record<string, unknown>;
}
