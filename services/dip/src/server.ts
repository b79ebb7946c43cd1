import '@lsp/service-kit/tracing';
import { serveService } from '@lsp/service-kit';
import { dipService } from './service';

serveService(dipService);
