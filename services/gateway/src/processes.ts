// The gateway's process, for the all-in-one host (it also has its own entry point).
export { buildGatewayProcess } from './service';
export type { InProcessUpstreams, StaticUpstreamName } from './in-process';
