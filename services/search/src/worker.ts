import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { repricingWorker } from './repricing-worker';

serveService(repricingWorker);
