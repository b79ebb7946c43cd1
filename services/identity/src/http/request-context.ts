import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../use-cases/request-context';

/** The request as the use cases see it: its id and its log. */
export const contextOf = (request: FastifyRequest): RequestContext => ({
  requestId: request.id,
  log: request.log,
});
