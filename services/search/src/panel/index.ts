export * from './schema';
export * from './parse-panel-file';
export * from './generate-panel';
export * from './load-panel';
export * from './rates-cut';
