import { serveService } from '@lsp/service-kit';
import { buildApp } from './app';
import { dipConfigSchema } from './config';

serveService({ name: 'dip', configSchema: dipConfigSchema, dbName: 'dip', build: buildApp });
