export * from './events/envelope';
