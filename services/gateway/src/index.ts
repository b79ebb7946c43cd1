export * from './app';
export * from './config';
export * from './routes-table';
