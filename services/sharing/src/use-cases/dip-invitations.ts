import { randomUUID } from 'node:crypto';
import { DEFAULT_SHARE_PERMISSIONS, SHARING_MESSAGES, type TargetedShareBody } from '@lsp/contracts';
import { type CallerIdentity, HttpError, type Logger, badRequest, tooManyRequests } from '@lsp/service-kit';
import { AllowanceUnavailableError, type SharingAllowances } from '../data/allowances';
import type { DipProjection, DipShare } from '../data/collections';
import { invalidAddresses, invitationAddresses, withSharingAddress } from '../domain/addresses';
import { shareableDip } from './current-dip';
import { type CopyLinkFallback, type DipShareDeps, copyLinkFallback, shareCreatedFor } from './dip-shares';

/** What emailing a DIP's signed link to its recipients needs. */
export interface DipInvitationDeps extends DipShareDeps {
  /** The owner's allowance of invitation emails, and who was emailed about a DIP in the last day. */
  allowances: Pick<SharingAllowances, 'spendDipShareEmails' | 'forgetDipShareEmails'>;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** One recipient of an invitation: shared, and emailed unless they were emailed about the DIP today. */
interface InvitedRecipient {
  email: string;
  success: boolean;
  shareId: string;
  emailed: boolean;
  note?: string;
}

/** The shares made (201), or the open link offered instead when the emails could not go (503). */
export type InvitationAnswer =
  | {
      status: 201;
      body: { success: true; results: InvitedRecipient[]; sent: number; failed: number };
    }
  | { status: 503; body: CopyLinkFallback };

/**
 * The targeted shares and their share.created events (which the emails are sent from), in one
 * transaction: a share exists if and only if its email was queued for delivery. A targeted link lasts
 * as long as the DIP, so the same address shared again gets the same link.
 */
async function recordInvitations(
  deps: DipInvitationDeps,
  dip: DipProjection,
  owner: { name: string },
  invitation: { emails: string[]; toEmail: Set<string>; message: string | null; now: Date },
) {
  const { links, recipients } = deps.repositories;
  const { emails, toEmail, message, now } = invitation;
  const slug = dip.shareSlug as string;
  return deps.mongo.transaction(async (session) => {
    const results: InvitedRecipient[] = [];
    const events = [];
    for (const email of emails) {
      const link = deps.signer.issue(slug, email, null);
      const existing = await links.findTargeted(dip._id, email, session);
      const shareId = existing?._id ?? randomUUID();
      const share: DipShare = {
        _id: shareId,
        dipId: dip._id,
        shareSlug: slug,
        ownerUserId: dip.ownerUserId,
        recipientUserId: existing?.recipientUserId ?? null,
        recipientEmail: email,
        status: 'active',
        tokenHash: link.tokenHash,
        tokenSalt: link.tokenSalt,
        inviteType: 'targeted',
        permissions: DEFAULT_SHARE_PERMISSIONS,
        message,
        createdAt: existing?.createdAt ?? now,
        expiresAt: null,
        lastAccessAt: existing?.lastAccessAt ?? null,
      };
      await links.save(share, session);
      await recipients.upsert(dip, { linkId: shareId, email, inviteType: 'targeted', message, now }, session);
      events.push(
        shareCreatedFor(dip, owner, {
          shareId,
          recipientEmail: email,
          message,
          url: link.url,
          linkExpiresAt: null,
          now,
          emailRecipient: toEmail.has(email),
        }),
      );
      results.push(
        toEmail.has(email)
          ? { email, success: true, shareId, emailed: true }
          : { email, success: true, shareId, emailed: false, note: SHARING_MESSAGES.alreadyEmailedToday },
      );
    }
    await deps.outbox.add(events, session);
    return { results, eventIds: events.map((event) => event.id) };
  });
}

/**
 * Shares a DIP with each address named, emailing its signed link. The addresses are checked first:
 * none, any not an email address, or any the owner's own (a share to it would only put the DIP in
 * their own 'Shared with me'), and nothing is shared. One email per address per DIP per day, each
 * from the owner's allowance (all or none, 429 when it is spent); whenever the emails cannot be
 * handed on for sending, the owner is offered the open link instead (503).
 */
export async function inviteRecipients(
  deps: DipInvitationDeps,
  dipId: string,
  caller: CallerIdentity,
  input: Pick<TargetedShareBody, 'recipients' | 'message'>,
): Promise<InvitationAnswer> {
  const owner = withSharingAddress(caller);
  const now = deps.clock.now();
  const dip = await shareableDip(deps, dipId, owner.userId, now);

  const emails = invitationAddresses(input.recipients);
  if (emails.length === 0) throw badRequest(SHARING_MESSAGES.noEmails);
  const invalid = invalidAddresses(emails);
  if (invalid.length > 0)
    throw badRequest(`${SHARING_MESSAGES.invalidEmails}: ${invalid.join(', ')}`, { invalid });
  if (emails.includes(owner.email)) throw badRequest(SHARING_MESSAGES.ownEmailAddress);

  // While the allowance cannot be checked, nothing is emailed and the owner is offered the open link.
  let spent;
  try {
    spent = await deps.allowances.spendDipShareEmails(owner.userId, dip._id, emails, now.getTime());
  } catch (err) {
    if (!(err instanceof AllowanceUnavailableError)) throw err;
    deps.logger.error(
      { err, dipId: dip._id },
      'invitation allowance unavailable; offering the copy-link fallback',
    );
    return { status: 503, body: await copyLinkFallback(deps, dip, owner, now) };
  }
  if (!spent.allowed)
    throw tooManyRequests(SHARING_MESSAGES.tooManyInvitations, {
      retryAfterSeconds: spent.retryAfterSeconds,
    });
  const { toEmail } = spent;

  let recorded;
  try {
    recorded = await recordInvitations(deps, dip, owner, { emails, toEmail, message: input.message, now });
  } catch (err) {
    // Not shared, so not emailed: sharing again must email them.
    await deps.allowances.forgetDipShareEmails(dip._id, [...toEmail]);
    if (err instanceof HttpError) throw err;
    deps.logger.error(
      { err, dipId: dip._id },
      'share could not be recorded; offering the copy-link fallback',
    );
    return { status: 503, body: await copyLinkFallback(deps, dip, owner, now) };
  }
  // The emails are sent from share.created: if it could not be handed on to the bus now, the owner is
  // told and given the open link (the shares stand; the relay sends the emails later).
  if ((await deps.outbox.handedOn?.(recorded.eventIds)) === false) {
    deps.logger.warn({ dipId: dip._id }, 'share.created not handed on; offering the copy-link fallback');
    return { status: 503, body: await copyLinkFallback(deps, dip, owner, now) };
  }
  return {
    status: 201,
    body: { success: true, results: recorded.results, sent: toEmail.size, failed: 0 },
  };
}
