import type { FastifyRequest } from 'fastify';
import { forbidden } from './errors';
import { requireCaller } from './http';
import type { CallerIdentity } from './identity-headers';

/** The signed-in caller holding `role`: 401 without a session, 403 (with `message`) without the role. */
export function requireRole(request: FastifyRequest, role: string, message?: string): CallerIdentity {
  const caller = requireCaller(request);
  if (!caller.roles?.includes(role)) throw forbidden(message);
  return caller;
}
