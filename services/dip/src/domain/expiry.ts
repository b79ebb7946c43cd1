import { DIP_EXPIRY_SHORTCUT_DAYS, DIP_MAX_EXPIRY_DAYS } from '@lsp/contracts';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** A new DIP is valid for the hours it was created with, counted from its creation. */
export function expiryOfNewDip(createdAt: Date, validityHours: number): Date {
  return new Date(createdAt.getTime() + validityHours * HOUR_MS);
}

/** The expiry an owner asks for: the date given, or without one the shortcut's days from now. */
export function requestedExpiry(expiresAt: string | undefined, now: Date): Date {
  return expiresAt ? new Date(expiresAt) : new Date(now.getTime() + DIP_EXPIRY_SHORTCUT_DAYS * DAY_MS);
}

/**
 * Why an owner may not move a DIP's expiry to this date, or null when they may: it must be in the
 * future and at most DIP_MAX_EXPIRY_DAYS away.
 */
export function expiryRefusal(expiresAt: Date, now: Date): string | null {
  if (expiresAt.getTime() <= now.getTime()) return 'The new expiry must be in the future';
  if (expiresAt.getTime() > now.getTime() + DIP_MAX_EXPIRY_DAYS * DAY_MS)
    return `The expiry can be at most ${DIP_MAX_EXPIRY_DAYS} days from now`;
  return null;
}
