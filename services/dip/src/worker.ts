import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { pdfWorker } from './pdf-worker';

serveService(pdfWorker);
