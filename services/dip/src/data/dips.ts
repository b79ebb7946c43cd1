import { type DipSnapshot, type EventEnvelope, dipSnapshotSchema } from '@lsp/contracts';
import type { EventOutbox } from '@lsp/service-kit';
import type { ClientSession, Connection } from 'mongoose';
import { z } from 'zod';
import { type Dip, type StoredProductChange, dipSchema } from '../domain/views';
import { fromMoney, mapMoney, toMoney } from './money';

/**
 * The version of the `online_dips` documents this code writes. Version 1 is every document written
 * before documents carried `schemaVersion`: the fields added to a DIP since (`linkRevokedAt`,
 * `productChange`, `pricedUnder`, `productCheckedAt`) may be absent. A document is brought up to this
 * version when it is read (`migrate`), never rewritten in place, so a release a version behind still
 * reads what this one writes (it ignores `schemaVersion`); a new version only ever adds fields.
 */
export const DIP_DOCUMENT_VERSION = 2;

/**
 * The spec's online_dips: the DIP with `_id` for its id, its document version, and the snapshot's
 * money (every field declared with `dipMoneySchema`) as Decimal128. Only the snapshot fields queries
 * read are typed; the rest is the snapshot's, read through {@link fromDocument}.
 */
export interface DipDocument extends Omit<Dip, 'id' | 'snapshot'> {
  _id: string;
  schemaVersion: number;
  snapshot: Pick<DipSnapshot, 'lenderId' | 'productId' | 'lenderName' | 'productName'> &
    Record<string, unknown>;
}

/**
 * The stored document, once migrated and its money read back: the DIP and its document version. A
 * later version (a newer release's, which only adds fields) is read by the fields this one knows.
 */
const dipDocumentSchema = dipSchema
  .omit({ id: true })
  .extend({ _id: z.string(), schemaVersion: z.number().int().min(DIP_DOCUMENT_VERSION) });

export function toDocument(dip: Dip): DipDocument {
  const { id, snapshot, ...rest } = dip;
  return {
    _id: id,
    schemaVersion: DIP_DOCUMENT_VERSION,
    ...rest,
    snapshot: mapMoney(dipSnapshotSchema, snapshot, toMoney) as DipDocument['snapshot'],
  };
}

/** A document of any earlier version as this version has it (the fields added since as none). */
export function migrate(doc: Record<string, unknown>): Record<string, unknown> {
  const version = doc.schemaVersion ?? 1;
  if (version === 1)
    return {
      ...doc,
      schemaVersion: 2,
      linkRevokedAt: doc.linkRevokedAt ?? null,
      productChange: doc.productChange ?? null,
      pricedUnder: doc.pricedUnder ?? null,
      productCheckedAt: doc.productCheckedAt ?? null,
    };
  return doc;
}

/**
 * A stored DIP, migrated to this version, its money read back as numbers and parsed: a document
 * that does not hold a DIP is an error naming it, never a view with fields missing.
 */
export function fromDocument(stored: DipDocument | Record<string, unknown>): Dip {
  const doc = migrate(stored as Record<string, unknown>);
  const parsed = dipDocumentSchema.safeParse({
    ...doc,
    snapshot: mapMoney(dipSnapshotSchema, doc.snapshot, fromMoney),
  });
  if (!parsed.success)
    throw new Error(
      `online_dips ${String(doc._id)} (schemaVersion ${String(doc.schemaVersion)}) does not hold a DIP: ${z.prettifyError(parsed.error)}`,
    );
  const { _id, schemaVersion: _version, ...dip } = parsed.data;
  return { id: _id, ...dip };
}

/** One product a lender panel change added, withdrew or repriced, as a DIP issued from it sees it. */
export interface ChangedProduct {
  lenderId: string;
  productId: string;
  /** What a DIP issued from it on other terms is marked with; null (added back) marks nothing. */
  change: StoredProductChange['change'] | null;
  /** The panel versions in which the product had its current terms. */
  sameTermsIn: readonly string[];
}

/** A DIP a panel change marked: what its owner's alert names. */
export interface MarkedDip {
  dipId: string;
  userId: string;
  quoteCode: string;
  lenderName: string;
  productName: string;
  change: StoredProductChange['change'];
}

/** Products looked up per query: a panel change may name hundreds; each query's `$or` stays bounded. */
const PRODUCTS_PER_QUERY = 200;
const productKey = (lenderId: string, productId: string) => `${lenderId}\u0000${productId}`;

/** Most DIPs the dashboard lists at once; far above any real user's count. */
export const USER_DIPS_LIMIT = 500;

export class DipRepository {
  constructor(
    private readonly connection: Connection,
    private readonly outbox: EventOutbox,
  ) {}

  private collection() {
    return this.connection.collection<DipDocument>('online_dips');
  }

  async ensureIndexes(): Promise<void> {
    const c = this.collection();
    await c.createIndex({ quoteCode: 1 }, { unique: true, name: 'quote_code_unique' });
    // Revoked DIPs have no slug: only the slugs that exist must be unique.
    await c.createIndex(
      { shareSlug: 1 },
      {
        unique: true,
        name: 'share_slug_unique',
        partialFilterExpression: { shareSlug: { $type: 'string' } },
      },
    );
    await c.createIndex({ userId: 1, createdAt: -1 }, { name: 'user_newest_first' });
    // The DIPs issued from a product, for a panel change that withdraws or reprices it.
    await c.createIndex(
      { 'snapshot.lenderId': 1, 'snapshot.productId': 1, expiresAt: 1 },
      { name: 'issued_product' },
    );
  }

  /** The DIP and its events commit together, or neither does. */
  async insert(dip: Dip, events: (dip: Dip) => EventEnvelope[]): Promise<void> {
    await this.connection.transaction(async (session) => {
      await this.collection().insertOne(toDocument(dip), { session });
      await this.outbox.add(events(dip), session);
    });
  }

  async findById(id: string): Promise<Dip | null> {
    const doc = await this.collection().findOne({ _id: id });
    return doc ? fromDocument(doc) : null;
  }

  async findBySlug(slug: string): Promise<Dip | null> {
    const doc = await this.collection().findOne({ shareSlug: slug });
    return doc ? fromDocument(doc) : null;
  }

  async findByQuoteCode(quoteCode: string): Promise<Dip | null> {
    const doc = await this.collection().findOne({ quoteCode });
    return doc ? fromDocument(doc) : null;
  }

  async countForUser(userId: string): Promise<number> {
    return this.collection().countDocuments({ userId });
  }

  async listForUser(userId: string): Promise<Dip[]> {
    const docs = await this.collection()
      .find({ userId })
      .sort({ createdAt: -1 })
      .limit(USER_DIPS_LIMIT)
      .toArray();
    return docs.map(fromDocument);
  }

  /**
   * Applies an owner's change to the version it was read at (a concurrent change makes this one
   * return null rather than overwrite), with its event, in one transaction.
   */
  async change(
    dip: Dip,
    set: Partial<Pick<Dip, 'shareSlug' | 'linkStatus' | 'expiresAt' | 'linkRevokedAt'>>,
    event: (changed: Dip) => EventEnvelope,
  ): Promise<Dip | null> {
    const changed: Dip = { ...dip, ...set, version: dip.version + 1 };
    const applied = await this.connection.transaction(async (session) => {
      const result = await this.collection().updateOne(
        { _id: dip.id, version: dip.version },
        { $set: { ...set, version: changed.version } },
        { session },
      );
      if (result.modifiedCount !== 1) return false;
      await this.outbox.add([event(changed)], session);
      return true;
    });
    return applied ? changed : null;
  }

  /**
   * Decides, for every live DIP (not expired at `now`, its link not revoked) issued from one of
   * `products`, what the panel change means to it, in the caller's transaction, and writes the events
   * of the DIPs it marked (`events`) to the outbox; returns those. A DIP priced under a version in which
   * the product had its current terms (a rollback to them) loses its notice, silently; otherwise a
   * withdrawn or repriced product marks it ('added' alone marks nothing). The terms, the snapshot and
   * the version are left as they are: the PDF (one per version) and every view of the terms stay the
   * DIP as issued, and an owner's change read before the mark still applies.
   *
   * The latest change is kept, not the first: a product repriced and later withdrawn is withdrawn
   * now, which is what the owner needs to know, and each change is one the owner hears of. Latest is
   * by the activation's time, so an older activation handled late never overwrites a newer decision.
   */
  async markProductChanges(
    panelChange: { panelVersion: string; at: Date; products: ChangedProduct[] },
    now: Date,
    events: (marked: MarkedDip[]) => EventEnvelope[],
    session: ClientSession,
  ): Promise<MarkedDip[]> {
    const { panelVersion, at, products } = panelChange;
    const productOf = new Map(products.map((p) => [productKey(p.lenderId, p.productId), p]));
    const marked: MarkedDip[] = [];
    const restored: string[] = [];
    for (let i = 0; i < products.length; i += PRODUCTS_PER_QUERY) {
      const batch = products.slice(i, i + PRODUCTS_PER_QUERY);
      const docs = await this.collection()
        .find(
          {
            $or: batch.map((p) => ({
              'snapshot.lenderId': p.lenderId,
              'snapshot.productId': p.productId,
            })),
            $nor: [{ 'productChange.at': { $gte: at } }, { productCheckedAt: { $gte: at } }],
            linkStatus: 'active',
            expiresAt: { $gt: now },
          },
          {
            session,
            projection: {
              userId: 1,
              quoteCode: 1,
              pricedUnder: 1,
              'snapshot.lenderId': 1,
              'snapshot.productId': 1,
              'snapshot.lenderName': 1,
              'snapshot.productName': 1,
            },
          },
        )
        .toArray();
      for (const doc of docs) {
        const product = productOf.get(productKey(doc.snapshot.lenderId, doc.snapshot.productId));
        if (!product) continue;
        if (doc.pricedUnder && product.sameTermsIn.includes(doc.pricedUnder)) restored.push(doc._id);
        else if (product.change)
          marked.push({
            dipId: doc._id,
            userId: doc.userId,
            quoteCode: doc.quoteCode,
            lenderName: doc.snapshot.lenderName,
            productName: doc.snapshot.productName,
            change: product.change,
          });
      }
    }
    for (const change of ['withdrawn', 'repriced'] as const) {
      const ids = marked.filter((m) => m.change === change).map((m) => m.dipId);
      if (ids.length === 0) continue;
      const productChange: StoredProductChange = { panelVersion, change, at };
      await this.collection().updateMany(
        { _id: { $in: ids } },
        { $set: { productChange, productCheckedAt: at } },
        { session },
      );
    }
    if (restored.length > 0)
      await this.collection().updateMany(
        { _id: { $in: restored } },
        { $set: { productChange: null, productCheckedAt: at } },
        { session },
      );
    const envelopes = marked.length > 0 ? events(marked) : [];
    if (envelopes.length > 0) await this.outbox.add(envelopes, session);
    return marked;
  }

  /** The first time the DIP is shared (from sharing's events); later shares leave it as it is. */
  async markShared(dipId: string, at: Date, session: ClientSession): Promise<void> {
    await this.collection().updateOne(
      { _id: dipId, firstSharedAt: null },
      { $set: { firstSharedAt: at } },
      { session },
    );
  }
}
