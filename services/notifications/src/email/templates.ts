import { formatUkDate } from '@lsp/contracts';
import { escapeHtml } from '@lsp/service-kit';
import { P, SMALL, frame, linkBlock } from './layout';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] || 'there';

export interface VerificationEmailInput {
  name: string;
  verificationUrl: string;
  expiresAt: string;
}

/**
 * The verification email: one clear button, the same link as text, and when it stops working.
 * The email worker renders every identity job through here, so a job of another identity template
 * is handed to `identityEmail`.
 */
export function verificationEmail(job: VerificationEmailInput | IdentityEmailInput): RenderedEmail {
  const template = (job as { template?: string }).template;
  if (template && template !== 'verify-email') return identityEmail(job as IdentityEmailInput);
  const input = job as VerificationEmailInput;
  const hours = Math.max(1, Math.round((Date.parse(input.expiresAt) - Date.now()) / 3600_000));
  const greeting = `Hi ${firstName(input.name)},`;
  const subject = 'Verify your email address to see your loan results';
  const text = [
    greeting,
    '',
    'Thanks for signing up. Please confirm your email address to unlock your lender results:',
    '',
    input.verificationUrl,
    '',
    `This link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.`,
  ].join('\n');
  const html = frame(
    'Verify your email address',
    `<p style="${P}">${escapeHtml(greeting)}</p>
<p style="${P}">Thanks for signing up. Please confirm your email address to unlock your lender results.</p>
${linkBlock(input.verificationUrl, 'Verify email address')}
<p style="${SMALL}">This link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.</p>`,
  );
  return { subject, html, text };
}

/** How long a link still works, in words: minutes under two hours, else hours (at least 1). */
function expiresIn(expiresAt: string): string {
  const minutes = Math.max(1, Math.round((Date.parse(expiresAt) - Date.now()) / 60_000));
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}

/** A time as UK readers expect it, e.g. "23 November 2026 at 10:30 (UK time)". */
function ukTime(iso: string): string {
  return `${formatUkDate(iso, 'long-time')} (UK time)`;
}

export interface PasswordResetEmailInput {
  name: string;
  resetUrl: string;
  expiresAt: string;
}

/** The password-reset email: the link, how long it works, and what to do if it was not asked for. */
export function passwordResetEmail(input: PasswordResetEmailInput): RenderedEmail {
  const greeting = `Hi ${firstName(input.name)},`;
  const subject = 'Reset your password';
  const intro = 'We received a request to reset the password of your LoanSearch UK account.';
  const expiry = `This link works once and expires in ${expiresIn(input.expiresAt)}.`;
  const ignore =
    'If you did not ask to reset your password, you can ignore this email: your password stays as it is.';
  const text = [greeting, '', `${intro} Choose a new one here:`, '', input.resetUrl, '', expiry, ignore].join(
    '\n',
  );
  const html = frame(
    subject,
    `<p style="${P}">${escapeHtml(greeting)}</p>
<p style="${P}">${escapeHtml(intro)}</p>
${linkBlock(input.resetUrl, 'Choose a new password')}
<p style="${SMALL}">${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  );
  return { subject, html, text };
}

export interface PasswordChangedEmailInput {
  name: string;
  email: string;
  changedAt: string;
  how: 'reset' | 'change';
  forgotPasswordUrl: string;
}

/** The notice after a password change: when, how, that other devices were signed out, and what to do if it was not them. */
export function passwordChangedEmail(input: PasswordChangedEmailInput): RenderedEmail {
  const greeting = `Hi ${firstName(input.name)},`;
  const subject = 'Your password has been changed';
  const how = input.how === 'reset' ? 'with a password reset link' : 'from your account page';
  const what = `The password of your LoanSearch UK account (${input.email}) was changed ${how} on ${ukTime(input.changedAt)}.`;
  const signedOut =
    input.how === 'reset'
      ? 'For your security you have been signed out on every device.'
      : 'For your security you have been signed out on every other device.';
  const notYou = 'If you did not make this change, reset your password now:';
  const text = [greeting, '', what, signedOut, '', notYou, '', input.forgotPasswordUrl].join('\n');
  const html = frame(
    subject,
    `<p style="${P}">${escapeHtml(greeting)}</p>
<p style="${P}">${escapeHtml(what)}</p>
<p style="${P}">${escapeHtml(signedOut)}</p>
<p style="${P}">${escapeHtml(notYou)}</p>
${linkBlock(input.forgotPasswordUrl, 'Reset your password')}
<p style="${SMALL}">If it was you, there is nothing more to do.</p>`,
  );
  return { subject, html, text };
}

/** Every identity email job, by its template. */
export type IdentityEmailInput =
  | ({ template: 'verify-email' } & VerificationEmailInput)
  | ({ template: 'password-reset' } & PasswordResetEmailInput)
  | ({ template: 'password-changed' } & PasswordChangedEmailInput);

/** Renders an identity email job with its template. */
export function identityEmail(job: IdentityEmailInput): RenderedEmail {
  switch (job.template) {
    case 'password-reset':
      return passwordResetEmail(job);
    case 'password-changed':
      return passwordChangedEmail(job);
    default:
      return verificationEmail(job);
  }
}
