import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  type ApplicationDeps,
  type ApplicationListDeps,
  listUserApplications,
  submitDipApplication,
  submitLoanApplication,
} from '../use-cases/applications';

export type ApplicationRouteDeps = ApplicationDeps & ApplicationListDeps;

/** DIP and loan applications, submitted and listed by the signed-in caller in their own name. */
export function registerApplicationRoutes(app: FastifyInstance, deps: ApplicationRouteDeps) {
  declareRoute(app, 'submitDipApplication', async (request, reply) => {
    const submitted = await submitDipApplication(deps, {
      caller: request.caller,
      body: request.body,
      requestId: request.id,
    });
    reply.status(201);
    return submitted;
  });

  declareRoute(app, 'submitLoanApplication', async (request, reply) => {
    const submitted = await submitLoanApplication(deps, {
      caller: request.caller,
      body: request.body,
      requestId: request.id,
    });
    reply.status(201);
    return submitted;
  });

  declareRoute(app, 'listUserApplications', async (request) =>
    listUserApplications(deps, request.caller, request.params.userId),
  );
}
