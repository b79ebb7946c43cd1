import { randomUUID } from 'node:crypto';
import { DIP_MESSAGES } from '@lsp/contracts';
import { forbidden, declareRoute, notFound, type Clock } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  type ApplicationRepository,
  dipApplicationDocument,
  loanApplicationDocument,
} from '../data/applications';
import { type SavedSearchProjection, type SavedSearchSource, savedSearchFor } from '../data/projections';
import { applicationSubmittedEvent } from '../events/published';

export interface ApplicationRouteDeps {
  applications: ApplicationRepository;
  clock: Clock;
  savedSearches: SavedSearchProjection;
  askSearch: SavedSearchSource;
}

/** A user id in the body, where the page sends one, must be the caller's own. */
function checkUserId(body: { userId?: string }, callerId: string) {
  if (body.userId !== undefined && body.userId !== callerId)
    throw forbidden('The user id does not match the signed-in user');
}

export function registerApplicationRoutes(app: FastifyInstance, deps: ApplicationRouteDeps) {
  const { applications, clock } = deps;

  /**
   * A search an application names must be the caller's own saved search, as for a DIP: an unknown one
   * is 404, someone else's 403 (the application would mark their search and reach the lender as theirs).
   */
  async function checkSearch(searchId: string | null | undefined, callerId: string) {
    if (!searchId) return;
    const search = await savedSearchFor(deps.savedSearches, deps.askSearch, searchId);
    if (!search) throw notFound(DIP_MESSAGES.searchNotFound);
    if (search.userId !== callerId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
  }

  /** The DIP application wizard; validated at submit with the spec's messages. */
  declareRoute(app, 'submitDipApplication', async (request, reply) => {
    const { caller, body } = request;
    checkUserId(body, caller.userId);
    await checkSearch(body.searchId, caller.userId);
    const doc = dipApplicationDocument(randomUUID(), caller.userId, body, clock.now());
    await applications.insertDipApplication(doc, [
      applicationSubmittedEvent(
        doc._id,
        {
          applicationId: doc._id,
          kind: 'dip-application',
          userId: caller.userId,
          searchId: doc.searchId,
          loanType: doc.loanType,
          loanAmount: doc.loanAmountValue === null ? null : Number(doc.loanAmountValue.toString()),
          status: doc.status,
          submittedAt: doc.submittedAt.toISOString(),
        },
        request.id,
      ),
    ]);
    reply.status(201);
    return { success: true, id: doc._id, status: doc.status };
  });

  /** 'Continue application' (/application): a loan application, status 'DIP Submitted'. */
  declareRoute(app, 'submitLoanApplication', async (request, reply) => {
    const { caller, body } = request;
    checkUserId(body, caller.userId);
    await checkSearch(body.searchId, caller.userId);
    const doc = loanApplicationDocument(randomUUID(), caller.userId, body, clock.now());
    await applications.insertLoanApplication(doc, [
      applicationSubmittedEvent(
        doc._id,
        {
          applicationId: doc._id,
          kind: 'loan-application',
          userId: caller.userId,
          searchId: doc.searchId,
          loanType: doc.loanType,
          loanAmount: doc.loanAmount === null ? null : Number(doc.loanAmount.toString()),
          status: doc.status,
          submittedAt: doc.submittedAt.toISOString(),
        },
        request.id,
      ),
    ]);
    reply.status(201);
    return { success: true, id: doc._id, status: doc.status };
  });

  declareRoute(app, 'listUserApplications', async (request) => {
    const { caller } = request;
    if (request.params.userId !== caller.userId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
    return { success: true, applications: await applications.listForUser(caller.userId) };
  });
}
