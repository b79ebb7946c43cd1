import type { EventEnvelope } from '@lsp/contracts';
import type { ClientSession, Connection } from 'mongoose';
import { isDuplicateKey } from './mongo-errors';

export interface ProcessedEvent {
  /** `${consumer}:${eventId}` */
  _id: string;
  consumer: string;
  eventId: string;
  type: string;
  processedAt: Date;
}

export interface ProcessedEventsOptions {
  collectionName?: string;
  /** How long a marker is kept; redeliveries older than this would run again (default 30 days). */
  retentionSeconds?: number;
}

/**
 * The consumer side of at-least-once delivery: a `processed_events` marker per consumer and event,
 * written in the same transaction as the handler's effect, so a redelivered event changes state once.
 */
export class ProcessedEvents {
  private constructor(
    readonly connection: Connection,
    readonly collectionName: string,
  ) {}

  static async open(connection: Connection, options: ProcessedEventsOptions = {}): Promise<ProcessedEvents> {
    const processed = new ProcessedEvents(connection, options.collectionName ?? 'processed_events');
    await processed
      .collection()
      .createIndex(
        { processedAt: 1 },
        { name: 'processed_ttl', expireAfterSeconds: options.retentionSeconds ?? 30 * 24 * 3600 },
      );
    return processed;
  }

  collection() {
    return this.connection.collection<ProcessedEvent>(this.collectionName);
  }

  /**
   * Runs `effect` in a transaction with the marker for (consumer, event id), unless that marker already
   * exists. Resolves true when the effect ran, false for a duplicate. Every write of the effect must use
   * the session it is given, or it is not part of the transaction.
   */
  async handleOnce(
    consumer: string,
    envelope: Pick<EventEnvelope, 'id' | 'type'>,
    effect: (session: ClientSession) => Promise<void>,
  ): Promise<boolean> {
    const _id = `${consumer}:${envelope.id}`;
    const collection = this.collection();
    try {
      return await this.connection.transaction(async (session) => {
        if (await collection.findOne({ _id }, { session })) return false;
        // The marker goes first: a concurrent duplicate then conflicts before doing any work.
        await collection.insertOne(
          { _id, consumer, eventId: envelope.id, type: envelope.type, processedAt: new Date() },
          { session },
        );
        await effect(session);
        return true;
      });
    } catch (err) {
      // Two deliveries of one event raced and the other committed first.
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async isProcessed(consumer: string, eventId: string): Promise<boolean> {
    return (await this.collection().countDocuments({ _id: `${consumer}:${eventId}` })) > 0;
  }
}
