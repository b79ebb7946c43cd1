import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { searchService } from './service';

serveService(searchService);
