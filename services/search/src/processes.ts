// The search service's processes, for the all-in-one host (each also has its own entry point).
export { searchService } from './service';
export { repricingWorker } from './repricing-worker';
