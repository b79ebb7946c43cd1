import type { DipSnapshot, EventEnvelope } from '@lsp/contracts';
import type { EventOutbox } from '@lsp/service-kit';
import type { Decimal128 } from 'mongodb';
import type { ClientSession, Connection } from 'mongoose';
import type { Dip } from '../domain/views';
import { fromMoney, fromMoneyOrNull, toMoney, toMoneyOrNull } from './money';

type StoredMoney = Decimal128;

/** The spec's online_dips, with the snapshot's money fields as Decimal128. */
interface DipDocument extends Omit<Dip, 'id' | 'snapshot'> {
  _id: string;
  snapshot: Omit<DipSnapshot, 'loan' | 'property' | 'financial'> & {
    loan: Omit<DipSnapshot['loan'], 'netLoan' | 'grossLoan' | 'fees' | 'monthlyPayment'> & {
      netLoan: StoredMoney;
      grossLoan: StoredMoney;
      fees: StoredMoney;
      monthlyPayment: StoredMoney;
    };
    property: Omit<DipSnapshot['property'], 'currentValue'> & { currentValue: StoredMoney };
    financial: {
      depositRequired: StoredMoney;
      purchasePrice: StoredMoney;
      projectCost: StoredMoney;
      buildCost: StoredMoney;
      gdv: StoredMoney | null;
    };
  };
}

function toDocument(dip: Dip): DipDocument {
  const { id, snapshot: s, ...rest } = dip;
  return {
    _id: id,
    ...rest,
    snapshot: {
      ...s,
      loan: {
        ...s.loan,
        netLoan: toMoney(s.loan.netLoan),
        grossLoan: toMoney(s.loan.grossLoan),
        fees: toMoney(s.loan.fees),
        monthlyPayment: toMoney(s.loan.monthlyPayment),
      },
      property: { ...s.property, currentValue: toMoney(s.property.currentValue) },
      financial: {
        depositRequired: toMoney(s.financial.depositRequired),
        purchasePrice: toMoney(s.financial.purchasePrice),
        projectCost: toMoney(s.financial.projectCost),
        buildCost: toMoney(s.financial.buildCost),
        gdv: toMoneyOrNull(s.financial.gdv),
      },
    },
  };
}

function fromDocument(doc: DipDocument): Dip {
  const { _id, snapshot: s, ...rest } = doc;
  return {
    id: _id,
    ...rest,
    snapshot: {
      ...s,
      loan: {
        ...s.loan,
        netLoan: fromMoney(s.loan.netLoan),
        grossLoan: fromMoney(s.loan.grossLoan),
        fees: fromMoney(s.loan.fees),
        monthlyPayment: fromMoney(s.loan.monthlyPayment),
      },
      property: { ...s.property, currentValue: fromMoney(s.property.currentValue) },
      financial: {
        depositRequired: fromMoney(s.financial.depositRequired),
        purchasePrice: fromMoney(s.financial.purchasePrice),
        projectCost: fromMoney(s.financial.projectCost),
        buildCost: fromMoney(s.financial.buildCost),
        gdv: fromMoneyOrNull(s.financial.gdv),
      },
    },
  };
}

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

  /** The first time the DIP is shared (from sharing's events); later shares leave it as it is. */
  async markShared(dipId: string, at: Date, session: ClientSession): Promise<void> {
    await this.collection().updateOne(
      { _id: dipId, firstSharedAt: null },
      { $set: { firstSharedAt: at } },
      { session },
    );
  }
}
