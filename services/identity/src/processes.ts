// The identity service's processes, for the all-in-one host (each also has its own entry point).
export { identityService } from './service';
