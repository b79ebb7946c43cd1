import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { emailWorker } from './email-worker';

serveService(emailWorker);
