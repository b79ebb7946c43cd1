import { randomUUID } from 'node:crypto';
import type { ShareFunnelBody } from '@lsp/contracts';
import type { Clock, Logger } from '@lsp/service-kit';
import type { SharingAllowances } from '../data/allowances';
import type { SharingRepositories } from '../data/repositories';
import { funnelFingerprint, funnelVisitor, keptFunnelMetadata } from '../domain/share-funnel';

export interface ShareFunnelDeps {
  allowances: Pick<SharingAllowances, 'telemetryAllowed' | 'firstSighting'>;
  repositories: Pick<SharingRepositories, 'funnel'>;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
}

/**
 * Records one share-funnel event, within the visitor's allowance and once in the duplicate window.
 * A measurement never fails its caller: whatever goes wrong is logged and the event dropped.
 */
export async function recordShareFunnelEvent(
  deps: ShareFunnelDeps,
  input: ShareFunnelBody,
  sender: { callerUserId: string | null; clientAddress: string },
): Promise<void> {
  try {
    const visitor = funnelVisitor(sender.callerUserId, input.sessionId, sender.clientAddress);
    if (!(await deps.allowances.telemetryAllowed(visitor))) return;
    if (!(await deps.allowances.firstSighting(funnelFingerprint(visitor, input)))) return;
    await deps.repositories.funnel.record({
      _id: randomUUID(),
      event: input.event,
      dipId: input.dipId ?? null,
      shareId: input.shareId ?? null,
      context: input.context ?? null,
      duration: input.duration ?? null,
      metadata: keptFunnelMetadata(input.metadata),
      clientTimestamp:
        input.timestamp === undefined || input.timestamp === null ? null : String(input.timestamp),
      sessionId: input.sessionId ?? null,
      correlationId: input.correlationId ?? null,
      userId: sender.callerUserId,
      createdAt: deps.clock.now(),
    });
  } catch (err) {
    deps.logger.warn({ err }, 'share-funnel event not recorded');
  }
}
