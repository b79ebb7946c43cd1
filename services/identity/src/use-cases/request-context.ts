import type { Logger } from '@lsp/service-kit';

/**
 * What a use case takes from the request it serves: the request id, which the events it causes carry
 * as their correlation id, and the request's log.
 */
export interface RequestContext {
  requestId: string;
  log: Pick<Logger, 'info'>;
}
