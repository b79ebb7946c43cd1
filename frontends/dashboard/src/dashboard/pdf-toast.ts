// The toast a Download PDF button shows for each outcome of downloadDipPdf. Apart from pdf.ts so that
// it imports only types (unit tests load it without the design system's stylesheet).
import type { ToastOptions } from '@lsp/ui';
import type { PdfOutcome } from './pdf';

/** The spec's toasts for a download's outcome; `failed` and `auth` are the descriptions each page uses. */
export function pdfDownloadToast(
  outcome: PdfOutcome,
  descriptions: { failed: string; auth?: string },
): ToastOptions {
  if (outcome === 'ok') return { title: 'Download Started', variant: 'success' };
  if (outcome === 'auth')
    return {
      title: 'Authentication Required',
      ...(descriptions.auth ? { description: descriptions.auth } : {}),
      variant: 'error',
    };
  return { title: 'Download Error', description: descriptions.failed, variant: 'error' };
}
