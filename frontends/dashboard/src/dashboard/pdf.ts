// GET /api/online-dip/pdf/{reference}: the PDF blob, saved as DIP-{quoteCode}.pdf.
import { apiPath } from '@lsp/ui';

export type PdfOutcome = 'ok' | 'auth' | 'failed';

export async function downloadDipPdf(reference: string, quoteCode?: string): Promise<PdfOutcome> {
  try {
    const res = await fetch(apiPath('downloadDipPdf', { params: { reference } }), {
      credentials: 'include',
    });
    if (res.status === 401) return 'auth';
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
