import { SIMPLE_EMAIL_PATTERN } from '@lsp/contracts';
import type { CallerIdentity } from '@lsp/service-kit';

/** An email address as shares are kept under it: trimmed, lower case. */
export const sharingAddress = (email: string) => email.trim().toLowerCase();

/** The caller with the address shares are kept under. */
export function withSharingAddress(caller: CallerIdentity): CallerIdentity {
  return { ...caller, email: sharingAddress(caller.email) };
}

/** The addresses an invitation names, each once as shares are kept under it; blank ones left out. */
export function invitationAddresses(recipients: readonly string[]): string[] {
  return [...new Set(recipients.map(sharingAddress).filter(Boolean))];
}

/** The addresses that are not email addresses. */
export function invalidAddresses(emails: readonly string[]): string[] {
  return emails.filter((email) => !SIMPLE_EMAIL_PATTERN.test(email));
}
