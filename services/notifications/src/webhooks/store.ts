import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_DELIVERIES_LISTED,
  WEBHOOK_SECRET_PREFIX,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookSummary,
} from '@lsp/contracts';
import type { Connection } from 'mongoose';

export interface EndpointDocument {
  _id: string;
  userId: string;
  url: string;
  events: WebhookEventType[];
  /** `whsec_` + base64 of 24 random bytes: kept, since every delivery is signed with it. */
  secret: string;
  status: 'enabled' | 'disabled';
  createdAt: Date;
  disabledAt: Date | null;
}

interface DeliveryDocument extends Omit<WebhookDelivery, 'at'> {
  /** `<endpointId>:<eventId>:<attempt>`: a try recorded twice (a retried write) is one record. */
  _id: string;
  endpointId: string;
  at: Date;
  /** Removed by the TTL index after 30 days. */
  expireAt: Date;
}

const DELIVERY_RECORDS_KEPT_MS = 30 * 24 * 3600_000;

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (192 bits). */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

const summaryOf = (doc: EndpointDocument): WebhookSummary => ({
  id: doc._id,
  url: doc.url,
  events: doc.events,
  status: doc.status,
  createdAt: doc.createdAt.toISOString(),
  disabledAt: doc.disabledAt?.toISOString() ?? null,
});

/**
 * The webhook endpoints (`webhook_endpoints`) and the record of every try (`webhook_deliveries`).
 * Every read of one endpoint names its owner: another user's endpoint is not found.
 */
export class WebhookStore {
  constructor(private readonly connection: Connection) {}

  endpoints() {
    return this.connection.collection<EndpointDocument>('webhook_endpoints');
  }

  private deliveries() {
    return this.connection.collection<DeliveryDocument>('webhook_deliveries');
  }

  async ensureIndexes(): Promise<void> {
    await this.endpoints().createIndex({ userId: 1, createdAt: -1 }, { name: 'owner' });
    // An endpoint's tries newest first, as `tries` lists them (ties by attempt): the page is read in
    // this order instead of sorting a month of the endpoint's tries. It replaces { endpointId, at },
    // whose order stopped short of the attempt, and which is dropped where an earlier release made it.
    await this.deliveries().createIndex({ endpointId: 1, at: -1, attempt: -1 }, { name: 'endpoint_newest' });
    await this.deliveries()
      .dropIndex('endpoint_at')
      .catch((err: { code?: number }) => {
        // 27 IndexNotFound (dropped already, or never made), 26 NamespaceNotFound (no tries yet).
        if (err.code !== 27 && err.code !== 26) throw err;
      });
    await this.deliveries().createIndex({ expireAt: 1 }, { name: 'expire', expireAfterSeconds: 0 });
  }

  async create(doc: EndpointDocument): Promise<void> {
    await this.endpoints().insertOne(doc);
  }

  async count(userId: string): Promise<number> {
    return this.endpoints().countDocuments({ userId });
  }

  async list(userId: string): Promise<WebhookSummary[]> {
    const docs = await this.endpoints().find({ userId }).sort({ createdAt: -1, _id: -1 }).toArray();
    return docs.map(summaryOf);
  }

  /** The caller's endpoint, or null (unknown, or another user's). */
  async owned(userId: string, id: string): Promise<EndpointDocument | null> {
    return this.endpoints().findOne({ _id: id, userId });
  }

  async byId(id: string): Promise<EndpointDocument | null> {
    return this.endpoints().findOne({ _id: id });
  }

  /** The owner's enabled endpoints that subscribe to the event type. */
  async subscribers(userId: string, type: string): Promise<EndpointDocument[]> {
    return this.endpoints()
      .find({ userId, status: 'enabled', events: type as WebhookEventType })
      .toArray();
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const { deletedCount } = await this.endpoints().deleteOne({ _id: id, userId });
    return deletedCount === 1;
  }

  /** Disables an enabled endpoint; false when it was already disabled or is gone. */
  async disable(id: string, at: Date): Promise<boolean> {
    const { modifiedCount } = await this.endpoints().updateOne(
      { _id: id, status: 'enabled' },
      { $set: { status: 'disabled', disabledAt: at } },
    );
    return modifiedCount === 1;
  }

  async recordTry(endpointId: string, delivery: WebhookDelivery): Promise<void> {
    const at = new Date(delivery.at);
    await this.deliveries().updateOne(
      { _id: `${endpointId}:${delivery.eventId}:${delivery.attempt}` },
      {
        $set: {
          ...delivery,
          endpointId,
          at,
          expireAt: new Date(at.getTime() + DELIVERY_RECORDS_KEPT_MS),
        },
      },
      { upsert: true },
    );
  }

  async tries(endpointId: string): Promise<WebhookDelivery[]> {
    const docs = await this.deliveries()
      .find({ endpointId })
      .sort({ at: -1, attempt: -1 })
      .limit(WEBHOOK_DELIVERIES_LISTED)
      .toArray();
    return docs.map((doc) => ({
      eventId: doc.eventId,
      type: doc.type,
      attempt: doc.attempt,
      statusCode: doc.statusCode,
      error: doc.error,
      delivered: doc.delivered,
      at: doc.at.toISOString(),
      durationMs: doc.durationMs,
    }));
  }

  async deleteTries(endpointId: string): Promise<void> {
    await this.deliveries().deleteMany({ endpointId });
  }
}
