export * from './wait';
export * from './mongo';
export * from './redis';
export * from './http-client';
export * from './smtp';
export * from './in-process';
export * from './ports';
export * from './fuzz';
