export { buildStaticServer, runStaticServer, type StaticServerOptions } from './static-server';
export { cacheControlFor } from './cache-control';
