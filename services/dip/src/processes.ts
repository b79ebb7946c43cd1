// The dip service's processes, for the all-in-one host (each also has its own entry point).
export { dipService } from './service';
export { pdfWorker } from './pdf-worker';
