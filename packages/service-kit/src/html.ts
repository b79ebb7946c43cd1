const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made safe to place in HTML, as element content or inside a quoted attribute: the five characters
 * that can end either (& < > " ') become entities and nothing else changes. Every value an HTML page,
 * email or PDF of the services shows goes through here; null and undefined are the empty text.
 */
export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * The header the gateway sends each request's style nonce in. Its Content-Security-Policy allows
 * stylesheets from the site and <style> elements carrying that answer's nonce, nothing else inline.
 */
export const STYLE_NONCE_HEADER = 'x-style-nonce';

/** A <style> element a page served through the gateway may carry: with the request's nonce, if it came with one. */
export function styleElement(css: string, nonce: unknown): string {
  const attribute = typeof nonce === 'string' && nonce !== '' ? ` nonce="${escapeHtml(nonce)}"` : '';
  return `<style${attribute}>${css}</style>`;
}
