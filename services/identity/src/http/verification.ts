import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type RegistrationDeps, resendVerification, verifyEmail } from '../use-cases/registration';
import { contextOf } from './request-context';
import { withRetryAfter } from './session-cookie';

/** Email verification: following the emailed link, and asking for a new one. */
export function registerVerificationRoutes(app: FastifyInstance, deps: Pick<RegistrationDeps, 'accounts'>) {
  declareRoute(app, 'verifyEmail', async (request) =>
    verifyEmail(deps, request.query.token, contextOf(request)),
  );

  declareRoute(app, 'resendVerification', async (request, reply) =>
    resendVerification(deps, request.body.email, contextOf(request)).catch((err) =>
      withRetryAfter(reply, err),
    ),
  );
}
