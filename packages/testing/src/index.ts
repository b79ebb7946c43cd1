export * from './wait';
export * from './mongo';
export * from './redis';
export * from './http-client';
export * from './smtp';
export * from './gateway';
export * from './ports';
