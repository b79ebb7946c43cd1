import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { sharingService } from './service';

serveService(sharingService);
