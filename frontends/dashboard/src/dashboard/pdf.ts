// GET /api/online-dip/pdf/{reference}: the PDF blob, saved as DIP-{quoteCode}.pdf.
import { apiPath } from '@lsp/ui';

/** 'busy': the PDF was still being rendered when the service stopped waiting (503 'try again'). */
export type PdfOutcome = 'ok' | 'auth' | 'busy' | 'failed';

async function fetchPdf(reference: string): Promise<Response> {
  return fetch(apiPath('downloadDipPdf', { params: { reference } }), { credentials: 'include' });
}

/**
 * Downloads a DIP's PDF. A DIP's first PDF is rendered on demand and the service waits for it up to
 * its timeout, then answers 503 while the render carries on; one more request then usually finds it
 * ready, so a 503 is asked again once before the caller hears 'busy'.
 */
export async function downloadDipPdf(reference: string, quoteCode?: string): Promise<PdfOutcome> {
  try {
    let res = await fetchPdf(reference);
    if (res.status === 503) res = await fetchPdf(reference);
    if (res.status === 401) return 'auth';
    if (res.status === 503) return 'busy';
    if (!res.ok) return 'failed';
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = quoteCode ? `DIP-${quoteCode}.pdf` : `${reference}.pdf`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    return 'ok';
  } catch {
    return 'failed';
  }
}
