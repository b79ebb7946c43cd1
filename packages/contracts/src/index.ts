export * from './events/envelope';
export * from './session';
