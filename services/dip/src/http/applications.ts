import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  type ApplicationDeps,
  type ApplicationListDeps,
  type ApplicationSubmission,
  listUserApplications,
  submitDipApplication,
  submitLoanApplication,
} from '../use-cases/applications';

export type ApplicationRouteDeps = ApplicationDeps & ApplicationListDeps;

/** An application as the signed-in caller submits it: theirs, the body as sent, the request's id. */
const submissionOf = <Body>(
  request: Pick<ApplicationSubmission<Body>, 'caller' | 'body'> & { id: string },
): ApplicationSubmission<Body> => ({ caller: request.caller, body: request.body, requestId: request.id });

/** DIP and loan applications, submitted and listed by the signed-in caller in their own name. */
export function registerApplicationRoutes(app: FastifyInstance, deps: ApplicationRouteDeps) {
  declareRoute(app, 'submitDipApplication', async (request, reply) => {
    const submitted = await submitDipApplication(deps, submissionOf(request));
    reply.status(201);
    return submitted;
  });

  declareRoute(app, 'submitLoanApplication', async (request, reply) => {
    const submitted = await submitLoanApplication(deps, submissionOf(request));
    reply.status(201);
    return submitted;
  });

  declareRoute(app, 'listUserApplications', async (request) =>
    listUserApplications(deps, request.caller, request.params.userId),
  );
}
