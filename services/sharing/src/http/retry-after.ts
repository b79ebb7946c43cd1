import { HttpError } from '@lsp/service-kit';
import type { FastifyReply } from 'fastify';

/** A 429 says when to come back, in its body (`retryAfterSeconds`) and in Retry-After. */
export function withRetryAfter(reply: FastifyReply, err: unknown): never {
  const seconds = err instanceof HttpError ? err.details?.retryAfterSeconds : undefined;
  if (err instanceof HttpError && err.statusCode === 429 && typeof seconds === 'number')
    reply.header('retry-after', String(seconds));
  throw err;
}
