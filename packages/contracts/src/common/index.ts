export * from './enums';
export * from './constants';
