import { DIP_EVENTS } from '@lsp/contracts';
import { badRequest } from '@lsp/service-kit';
import type { DipRepository } from '../data/dips';
import { expiryRefusal, requestedExpiry } from '../domain/expiry';
import { type OwnerAction, type OwnerActionDeps, changedConcurrently, ownedLiveDip } from './access';
import type { AnswerOf } from './answers';

export interface DipExpiryDeps extends OwnerActionDeps {
  dips: Pick<DipRepository, 'findById' | 'change'>;
}

/**
 * The owner moves a live DIP's expiry (Set Expiry): to the date asked for, or without one to the
 * shortcut's 30 days from now; 400 for a date in the past or too far ahead.
 */
export async function changeDipExpiry(
  deps: DipExpiryDeps,
  action: OwnerAction & { expiresAt: string | undefined },
): Promise<AnswerOf<'setDipExpiry'>> {
  const dip = await ownedLiveDip(deps, action.dipId, action.caller);
  const now = deps.clock.now();
  const expiresAt = requestedExpiry(action.expiresAt, now);
  const refusal = expiryRefusal(expiresAt, now);
  if (refusal) throw badRequest(refusal);
  const changed = await deps.dips.change(dip, { expiresAt }, (d) =>
    DIP_EVENTS.expiryChanged.envelope(
      {
        dipId: d.id,
        ownerUserId: d.userId,
        version: d.version,
        expiresAt: expiresAt.toISOString(),
        previousExpiresAt: dip.expiresAt.toISOString(),
        changedAt: now.toISOString(),
      },
      { correlationId: action.requestId },
    ),
  );
  if (!changed) throw changedConcurrently();
  return { ok: true, success: true, expiresAt: expiresAt.toISOString() };
}
