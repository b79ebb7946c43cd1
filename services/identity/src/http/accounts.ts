import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type RegistrationDeps, createAccount, register, saveLeadInfo } from '../use-cases/registration';
import { contextOf } from './request-context';

/** Creating an account (register, create-account) and the lead details kept on it. */
export function registerAccountRoutes(app: FastifyInstance, deps: RegistrationDeps) {
  declareRoute(app, 'register', async (request, reply) => {
    const answer = await register(deps, request.body, contextOf(request));
    reply.status(201);
    return answer;
  });

  declareRoute(app, 'createAccount', async (request, reply) => {
    const answer = await createAccount(deps, request.body, contextOf(request));
    reply.status(201);
    return answer;
  });

  declareRoute(app, 'saveLeadInfo', async (request) =>
    saveLeadInfo(deps, request.caller.userId, request.body),
  );
}
