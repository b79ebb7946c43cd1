export * from './enums';
export * from './constants';
export * from './optional';
