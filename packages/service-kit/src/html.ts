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

