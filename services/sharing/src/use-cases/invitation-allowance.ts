import { SHARING_MESSAGES } from '@lsp/contracts';
import { type Logger, serviceUnavailable, tooManyRequests } from '@lsp/service-kit';
import { AllowanceUnavailableError, type SharingAllowances } from '../data/allowances';

export interface InvitationAllowanceDeps {
  allowances: Pick<SharingAllowances, 'spendInvitation'>;
  logger: Pick<Logger, 'error'>;
}

/**
 * Deal shares and referrals spend from the same allowance as DIP shares, so nobody can spam through
 * the platform: 429 with `retryAfterSeconds` when it is spent; while it cannot be checked, nothing
 * is sent (503).
 */
export async function spendInvitation(deps: InvitationAllowanceDeps, userId: string): Promise<void> {
  const verdict = await deps.allowances.spendInvitation(userId).catch((err: unknown) => {
    if (!(err instanceof AllowanceUnavailableError)) throw err;
    deps.logger.error({ err }, 'invitation allowance unavailable; nothing sent');
    throw serviceUnavailable(SHARING_MESSAGES.invitationsUnavailable);
  });
  if (!verdict.allowed)
    throw tooManyRequests(SHARING_MESSAGES.tooManyInvitations, {
      retryAfterSeconds: verdict.retryAfterSeconds,
    });
}
