export * from './events';
export * from './http';
export * from './routes';
export * from './internal';
