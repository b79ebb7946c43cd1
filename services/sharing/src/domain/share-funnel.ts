import { createHash } from 'node:crypto';
import type { ShareFunnelBody } from '@lsp/contracts';

/** Metadata longer than this (as JSON) is not kept with a share-funnel event. */
const MAX_METADATA_CHARS = 4000;

/**
 * Who sent a share-funnel event, for its allowance and duplicate window: the signed-in user, else the
 * page's session, else the client's address.
 */
export function funnelVisitor(
  callerUserId: string | null,
  sessionId: string | null | undefined,
  clientAddress: string,
): string {
  if (callerUserId !== null) return `u:${callerUserId}`;
  return sessionId ? `s:${sessionId}` : `a:${clientAddress}`;
}

/** The same event from the same visitor about the same DIP, share and page has the same fingerprint. */
export function funnelFingerprint(visitor: string, input: ShareFunnelBody): string {
  return createHash('sha256')
    .update(
      JSON.stringify([visitor, input.event, input.dipId ?? '', input.shareId ?? '', input.context ?? '']),
    )
    .digest('hex');
}

/** The metadata kept with an event: none when it is absent or too long. */
export function keptFunnelMetadata(
  metadata: ShareFunnelBody['metadata'],
): NonNullable<ShareFunnelBody['metadata']> | null {
  return metadata && JSON.stringify(metadata).length <= MAX_METADATA_CHARS ? metadata : null;
}
