// What every EventBus adapter does the same way, whatever its broker.
import { settlesWithin } from './retry';
import type { EventLogger, Subscription } from './types';

/** The logger of a bus given none. */
export const silentLogger: EventLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Subscriptions are fixed once the bus has started, and each names at least one event type. */
export function checkNewSubscription(subscription: Subscription, started: boolean): void {
  if (started) throw new Error('subscribe before start()');
  if (subscription.types.length === 0) throw new Error('a subscription needs at least one event type');
}

/**
 * Waits up to `closeTimeoutMs` for the consumers to stop, the handlers they are running with them;
 * past that the handlers are abandoned (with a warning) and the bus closes its connections anyway.
 */
export async function awaitHandlersAtClose(
  stopped: Promise<unknown>,
  closeTimeoutMs: number,
  logger: EventLogger,
): Promise<void> {
  if (!(await settlesWithin(stopped, closeTimeoutMs))) {
    logger.warn({ closeTimeoutMs }, 'event bus: handlers still running at close; abandoning them');
  }
}
