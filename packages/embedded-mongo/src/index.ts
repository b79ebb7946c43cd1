export { startEmbeddedMongo } from './server';
export type { EmbeddedMongo, EmbeddedMongoOptions } from './server';
export type { FsyncPolicy } from './storage/journal';
