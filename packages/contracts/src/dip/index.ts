export * from './events';
export * from './http';
export * from './routes';
export * from './views';
export * from './internal';
