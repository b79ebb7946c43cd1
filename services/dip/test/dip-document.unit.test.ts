import { type DipSnapshot, dipSnapshotSchema } from '@lsp/contracts';
import { Decimal128 } from 'mongodb';
import { DIP_DOCUMENT_VERSION, fromDocument, toDocument } from '../src/data/dips';
import { fromMoney, mapMoney, toMoney } from '../src/data/money';
import { buildSnapshot } from '../src/domain/snapshot';
import type { Dip } from '../src/domain/views';
import { AS_CREATED, OFFER, versionOneDocument } from './fixtures';

const SNAPSHOT = buildSnapshot(
  'development',
  OFFER,
  { projectName: 'Mill Lane', propertyLocation: 'SouthEast', propertyClass: 'Residential', gdv: 3200000 },
  { name: 'Alex Investor', email: 'alex@example.co.uk' },
  true,
);

const DIP: Dip = {
  id: '6f1c1c1e-7a4b-4c1e-9d7e-1f2a3b4c5d6e',
  userId: 'user-1',
  searchId: 'search-1',
  loanIndex: 0,
  quoteCode: 'K7MQ-X9PA',
  shareSlug: 'slug-of-twenty-two-ch',
  linkStatus: 'active',
  validityHours: 48,
  snapshot: SNAPSHOT,
  expiresAt: new Date('2026-03-04T10:00:00.000Z'),
  createdAt: new Date('2026-03-02T10:00:00.000Z'),
  ...AS_CREATED,
};

describe('online_dips documents', () => {
  it('writes the current version with the same money fields as Decimal128 as version 1 had', () => {
    const written = toDocument(DIP) as unknown as Record<string, unknown> & { snapshot: DipSnapshot };
    expect(written.schemaVersion).toBe(DIP_DOCUMENT_VERSION);
    const { schemaVersion: _version, ...rest } = written;
    expect(rest).toEqual(
      expect.objectContaining({ ...versionOneDocument(DIP), linkRevokedAt: null, productChange: null }),
    );
  });

  it('reads back what it writes', () => {
    expect(fromDocument(toDocument(DIP))).toEqual(DIP);
  });

  it('reads a version 1 document: money back as numbers, the fields added since as none', () => {
    const stored = { ...versionOneDocument(DIP), firstSharedAt: new Date('2026-03-03T09:00:00.000Z') };
    expect(stored).not.toHaveProperty('schemaVersion');
    expect(stored).not.toHaveProperty('productChange');
    expect(fromDocument(stored)).toEqual({ ...DIP, firstSharedAt: new Date('2026-03-03T09:00:00.000Z') });
  });

  it('keeps what a version 1 document already had of the fields added since', () => {
    const at = new Date('2026-03-03T12:00:00.000Z');
    const stored = {
      ...versionOneDocument(DIP),
      productChange: { panelVersion: 'v7', change: 'repriced', at },
      productCheckedAt: at,
    };
    expect(fromDocument(stored)).toMatchObject({
      productChange: { panelVersion: 'v7', change: 'repriced', at },
      productCheckedAt: at,
      linkRevokedAt: null,
      pricedUnder: null,
    });
  });

  it('reads a later version by the fields it knows', () => {
    const later = { ...toDocument(DIP), schemaVersion: DIP_DOCUMENT_VERSION + 1, brokerNote: 'new' };
    expect(fromDocument(later)).toEqual(DIP);
  });

  it('refuses a document that does not hold a DIP, naming it, rather than answer a view with holes', () => {
    const stored = versionOneDocument(DIP) as { snapshot: { loan: Record<string, unknown> } };
    delete stored.snapshot.loan.termMonths;
    expect(() => fromDocument(stored)).toThrow(/online_dips 6f1c1c1e-.* \(schemaVersion 2\).*termMonths/s);
  });
});

describe('money found by walking the snapshot schema', () => {
  it('converts every money field, nullable ones when present, and nothing else', () => {
    const stored = mapMoney(dipSnapshotSchema, SNAPSHOT, toMoney) as DipSnapshot & {
      loan: Record<string, unknown>;
      financial: Record<string, unknown>;
    };
    expect(stored.loan.netLoan).toBeInstanceOf(Decimal128);
    expect(stored.loan.interestRate).toBe(SNAPSHOT.loan.interestRate);
    expect(stored.financial.gdv).toBeInstanceOf(Decimal128);
    expect(stored.offer).toEqual(SNAPSHOT.offer);
    const none = mapMoney(
      dipSnapshotSchema,
      { ...SNAPSHOT, financial: { ...SNAPSHOT.financial, gdv: null } },
      toMoney,
    );
    expect((none as DipSnapshot).financial.gdv).toBeNull();
    expect(mapMoney(dipSnapshotSchema, stored, fromMoney)).toEqual(SNAPSHOT);
  });
});
