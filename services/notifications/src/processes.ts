// The notifications service's processes, for the all-in-one host (each also has its own entry point).
export { notificationsService } from './service';
export { emailWorker } from './email-worker';
