/** Expired from the instant of its expiry: a DIP or a link expiring now no longer opens. */
export const isExpired = (expiresAt: Date, now: Date) => expiresAt.getTime() <= now.getTime();

/**
 * The expiry an open link keeps of its own: the one asked for when it is earlier than the DIP's. A
 * link never outlives its DIP; without an expiry of its own (null) it follows the DIP's.
 */
export function openLinkExpiry(asked: Date | null, dipExpiresAt: Date): Date | null {
  return asked && asked.getTime() < dipExpiresAt.getTime() ? asked : null;
}
