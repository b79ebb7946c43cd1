export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const firstName = (name: string) => name.trim().split(/\s+/)[0] || 'there';

/** The verification email: one clear button, the same link as text, and when it stops working. */
export function verificationEmail(input: {
  name: string;
  verificationUrl: string;
  expiresAt: string;
}): RenderedEmail {
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
  const url = escapeHtml(input.verificationUrl);
  const html = `<!doctype html>
<html lang="en-GB"><body style="margin:0;padding:24px;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#102c54">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<h1 style="font-size:22px;margin:0 0 16px">Verify your email address</h1>
<p style="font-size:16px;line-height:1.5">${escapeHtml(greeting)}</p>
<p style="font-size:16px;line-height:1.5">Thanks for signing up. Please confirm your email address to unlock your lender results.</p>
<p style="margin:28px 0"><a href="${url}" style="background:#1d4ed8;color:#ffffff;padding:12px 24px;border-radius:6px;text-decoration:none;font-weight:bold">Verify email address</a></p>
<p style="font-size:14px;line-height:1.5">Or paste this link into your browser:<br><a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></p>
<p style="font-size:13px;color:#5b6b82;line-height:1.5">This link works once and expires in ${hours} hours. If you did not create an account, you can ignore this email.</p>
</td></tr></table></body></html>`;
  return { subject, html, text };
}
