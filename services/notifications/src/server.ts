import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { notificationsService } from './service';

serveService(notificationsService);
