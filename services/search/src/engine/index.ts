export * from './common';
export * from './development';
export * from './bridging';
export * from './commercial';
export * from './search-panel';
export * from './lendability-score';
