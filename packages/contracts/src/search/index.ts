export * from './fields';
export * from './payloads';
export * from './result';
export * from './http';
export * from './events';
export * from './routes';
export * from './panel-ops';
export * from './internal';
