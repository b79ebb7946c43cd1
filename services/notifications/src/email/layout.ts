import { escapeHtml } from '@lsp/service-kit';

/** The style of an email's paragraphs, and of its small print. */
export const P = 'font-size:16px;line-height:1.5';
export const SMALL = 'font-size:13px;color:#5b6b82;line-height:1.5';

/** The frame every email's HTML shares, the title as its heading; every value in `body` is escaped by the caller. */
export function frame(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-GB"><body style="margin:0;padding:24px;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#102c54">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body}
</td></tr></table></body></html>`;
}

/** The email's button to its link (escaped). */
export function button(href: string, label: string): string {
  return `<p style="margin:28px 0"><a href="${escapeHtml(href)}" style="background:#1d4ed8;color:#ffffff;padding:12px 24px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;
}

/** A button and the same link as text (escaped). */
export function linkBlock(href: string, label: string): string {
  const url = escapeHtml(href);
  return `${button(href, label)}
<p style="font-size:14px;line-height:1.5">Or paste this link into your browser:<br><a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></p>`;
}
