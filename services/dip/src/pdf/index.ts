export { DipPdfs, PDF_QUEUE, PdfUnavailableError, openDipPdfs, pdfJobId, startPdfWorker } from './jobs';
export { PdfRenderer, CHROMIUM_ARGS } from './renderer';
export { PdfStore, pdfFileName } from './store';
export { type PdfDip, renderDipHtml, DIP_DISCLAIMER } from './template';
