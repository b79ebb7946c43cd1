import type { FastifyError, FastifySchemaCompiler } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  validatorCompiler as zodValidatorCompiler,
} from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { HttpError, badRequest } from './errors';

/** The message of a body that is JSON but not an object (an array, a string, a number). */
export const BODY_NOT_AN_OBJECT = 'The request body must be a JSON object';

/**
 * The validator fastify compiles every declared params, query and body schema with: zod parses
 * (fastify-type-provider-zod), and what the handler reads is zod's output. A request without a body
 * is validated as `{}`, so a route whose fields are all optional takes an empty POST; a body that is
 * JSON but not an object is refused in the product's words before zod sees it.
 */
export const declaredSchemaValidator: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  if (route.httpPart !== 'body') return validate;
  return (data) => {
    if (data === undefined || data === null) return validate({});
    if (typeof data !== 'object' || Array.isArray(data)) return { error: badRequest(BODY_NOT_AN_OBJECT) };
    return validate(data);
  };
};

interface ProblemIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The 400 of an invalid request: the first problem is the error message (the spec's own wording lives
 * in the schemas), and each field's first problem is listed in `fields` (`_` for the whole input).
 */
function invalidRequest(issues: readonly ProblemIssue[]): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return badRequest(issues[0]?.message ?? 'Invalid request', { fields });
}

/**
 * A validation failure fastify raised before the handler, as the product's 400; null for any other
 * error. The zod issues arrive as JSON-pointer paths (`/lead/email`).
 */
export function declaredValidationProblem(error: FastifyError | Error): HttpError | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  return invalidRequest(
    error.validation.map((item) => ({
      path: item.instancePath.split('/').filter(Boolean),
      message: item.message ?? 'Invalid request',
    })),
  );
}

/**
 * Parses input with a contracts schema inside a handler, for input a route's declaration cannot
 * type ahead (a search payload whose schema depends on a field of the body). Refuses as the
 * declared validation does.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw invalidRequest(result.error.issues);
}
