export * from './app';
export * from './config';
export * from './email-jobs';
export * from './email-worker';
export * from './mail-catcher';
export * from './templates';
