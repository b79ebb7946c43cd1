import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { identityService } from './service';

serveService(identityService);
