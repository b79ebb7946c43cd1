// The sharing service's processes, for the all-in-one host (each also has its own entry point).
export { sharingService } from './service';
