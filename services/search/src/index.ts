export { buildApp, createRepositories, ensureIndexes, type SearchDeps } from './app';
export { searchConfigSchema, type SearchConfig } from './config';
export { PanelStore, PanelVersionClashError, type PanelActivation } from './data/panel-store';
