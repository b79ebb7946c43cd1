import { randomUUID } from 'node:crypto';
import {
  type ApplicationSubmittedEvent,
  DIP_MESSAGES,
  type DipApplicationBody,
  type LoanApplicationBody,
  searchesWithApplicationsResponseSchema,
  DIP_EVENTS,
} from '@lsp/contracts';
import { type CallerIdentity, type Clock, forbidden } from '@lsp/service-kit';
import {
  type ApplicationRepository,
  type DipApplicationDocument,
  type LoanApplicationDocument,
  dipApplicationDocument,
  loanApplicationDocument,
} from '../data/applications';
import { type SavedSearchDeps, callersSavedSearch } from './access';
import type { AnswerOf } from './answers';

export interface ApplicationDeps extends SavedSearchDeps {
  applications: Pick<ApplicationRepository, 'insertDipApplication' | 'insertLoanApplication'>;
  clock: Clock;
}

export interface ApplicationSubmission<Body> {
  caller: CallerIdentity;
  body: Body;
  requestId: string;
}

/**
 * What every application is checked for before it is stored: a user id in the body, where the page
 * sends one, must be the caller's own, and a search it names the caller's own saved search.
 */
async function checkSubmission(
  deps: SavedSearchDeps,
  caller: CallerIdentity,
  body: { userId?: string; searchId?: string | null },
) {
  if (body.userId !== undefined && body.userId !== caller.userId)
    throw forbidden('The user id does not match the signed-in user');
  if (body.searchId) await callersSavedSearch(deps, body.searchId, caller);
}

/** A stored amount as application.submitted carries it. */
const amountOf = (money: { toString(): string } | null) => (money === null ? null : Number(money.toString()));

/** What application.submitted reads of a stored application of either kind. */
type StoredApplication = Pick<
  DipApplicationDocument | LoanApplicationDocument,
  '_id' | 'userId' | 'searchId' | 'loanType' | 'status' | 'submittedAt'
>;

/** application.submitted for a stored application, whose subject is the application. */
function applicationSubmitted(
  kind: ApplicationSubmittedEvent['kind'],
  doc: StoredApplication,
  loanAmount: { toString(): string } | null,
  requestId: string,
) {
  return DIP_EVENTS.applicationSubmitted.envelope(
    {
      applicationId: doc._id,
      kind,
      userId: doc.userId,
      searchId: doc.searchId,
      loanType: doc.loanType,
      loanAmount: amountOf(loanAmount),
      status: doc.status,
      submittedAt: doc.submittedAt.toISOString(),
    },
    { correlationId: requestId },
  );
}

/** The DIP application wizard's answers, status 'submitted', stored with application.submitted. */
export async function submitDipApplication(
  deps: ApplicationDeps,
  submission: ApplicationSubmission<DipApplicationBody>,
): Promise<AnswerOf<'submitDipApplication'>> {
  const { caller, body, requestId } = submission;
  await checkSubmission(deps, caller, body);
  const doc = dipApplicationDocument(randomUUID(), caller.userId, body, deps.clock.now());
  await deps.applications.insertDipApplication(doc, [
    applicationSubmitted('dip-application', doc, doc.loanAmountValue, requestId),
  ]);
  return { success: true, id: doc._id, status: doc.status };
}

/** 'Continue application' (/application): a loan application, status 'DIP Submitted'. */
export async function submitLoanApplication(
  deps: ApplicationDeps,
  submission: ApplicationSubmission<LoanApplicationBody>,
): Promise<AnswerOf<'submitLoanApplication'>> {
  const { caller, body, requestId } = submission;
  await checkSubmission(deps, caller, body);
  const doc = loanApplicationDocument(randomUUID(), caller.userId, body, deps.clock.now());
  await deps.applications.insertLoanApplication(doc, [
    applicationSubmitted('loan-application', doc, doc.loanAmount, requestId),
  ]);
  return { success: true, id: doc._id, status: doc.status };
}

export interface ApplicationListDeps {
  applications: Pick<ApplicationRepository, 'listForUser'>;
}

/** The caller's applications, DIP and loan; only the caller's own list may be asked for. */
export async function listUserApplications(
  deps: ApplicationListDeps,
  caller: CallerIdentity,
  userId: string,
): Promise<AnswerOf<'listUserApplications'>> {
  if (userId !== caller.userId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
  return { success: true, applications: await deps.applications.listForUser(caller.userId) };
}

export interface SearchesWithApplicationsDeps {
  applications: Pick<ApplicationRepository, 'searchesWithApplications'>;
}

/** Which of a user's saved searches have an application, for search's dashboard. */
export async function searchesWithApplications(
  deps: SearchesWithApplicationsDeps,
  userId: string,
  searchIds: string[],
) {
  return searchesWithApplicationsResponseSchema.parse({
    searchIds: await deps.applications.searchesWithApplications(userId, searchIds),
  });
}
