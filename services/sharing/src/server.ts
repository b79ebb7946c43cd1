import { serveService } from '@lsp/service-kit';
import { buildApp } from './app';
import { sharingConfigSchema } from './config';

serveService({ name: 'sharing', configSchema: sharingConfigSchema, dbName: 'sharing', build: buildApp });
