export * from './enums';
export * from './constants';
export * from './pending-results';
export * from './optional';
export * from './text';
export * from './json';
