import { pdfDownloadToast } from '../src/dashboard/pdf-toast';

describe('the toast of a PDF download', () => {
  const descriptions = {
    failed: 'Failed to download PDF. Please try again.',
    auth: 'Please log in to download PDFs.',
  };

  it('says the download started, or why it did not, in the page’s words', () => {
    expect(pdfDownloadToast('ok', descriptions)).toEqual({ title: 'Download Started', variant: 'success' });
    expect(pdfDownloadToast('auth', descriptions)).toEqual({
      title: 'Authentication Required',
      description: 'Please log in to download PDFs.',
      variant: 'error',
    });
    for (const outcome of ['busy', 'failed'] as const)
      expect(pdfDownloadToast(outcome, descriptions)).toEqual({
        title: 'Download Error',
        description: 'Failed to download PDF. Please try again.',
        variant: 'error',
      });
  });

  it('leaves the sign-in toast without a description where the page gives none', () => {
    expect(pdfDownloadToast('auth', { failed: 'x' })).toEqual({
      title: 'Authentication Required',
      variant: 'error',
    });
  });
});
