export * from './events/envelope';
export * from './session';
export * from './identity';
export * from './common';
export * from './display';
export * from './search';
export * from './dip';
export * from './sharing';
