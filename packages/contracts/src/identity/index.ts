export * from './api-keys';
export * from './http';
export * from './events';
export * from './password-reset';
export * from './routes';
