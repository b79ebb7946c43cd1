export * from './numbers';
export * from './format';
export * from './offer';
export * from './results';
export * from './history';
export * from './lendability';
export * from './labels';
