export { buildApp, createRepositories, ensureIndexes, type SearchDeps } from './app';
export { searchConfigSchema, type SearchConfig } from './config';
export { PanelStore, PanelVersionClashError, type PanelFileActivation } from './data/panel-store';
