// The plans of dip's own reads: each repository method runs against the indexes dip creates
// (ensureIndexes, and the PDF store's), the find, aggregate or distinct it sent is explained as sent,
// and the plan must read through the index meant for it, never the whole collection.
import { Outbox } from '@lsp/service-kit';
import { expectIndexedPlan, startQueryPlans, useHarness } from '@lsp/testing';
import { createRepositories, ensureIndexes } from '../src/app';
import { toDocument } from '../src/data/dips';
import type { Dip } from '../src/domain/views';
import { PdfStore } from '../src/pdf/store';
import { AS_CREATED, pdfDip } from './fixtures';

const NOW = new Date(Date.UTC(2026, 10, 1));
const HOUR_MS = 3600 * 1000;
const dipId = (i: number) => `dip-${String(i).padStart(4, '0')}`;
const LENDERS = ['ember-lane-credit', 'harbour-bridge', 'north-crest'];
const PRODUCTS = ['dev-60', 'dev-70', 'bridge-12', 'term-5'];

/** DIP `i`: one of 40 owners, issued from one of twelve products, live unless `i` is a multiple of 5. */
function dip(i: number): Dip {
  const base = pdfDip(dipId(i));
  return {
    ...AS_CREATED,
    id: dipId(i),
    userId: `user-${i % 40}`,
    searchId: `search-${i % 120}`,
    loanIndex: 0,
    quoteCode: `Q${String(i).padStart(4, '0')}-CODE`,
    shareSlug: i % 7 === 0 ? null : `slug-${i}`,
    linkStatus: i % 7 === 0 ? 'revoked' : 'active',
    validityHours: 48,
    snapshot: {
      ...base.snapshot,
      lenderId: LENDERS[i % LENDERS.length],
      productId: PRODUCTS[i % PRODUCTS.length],
    },
    createdAt: new Date(NOW.getTime() - i * HOUR_MS),
    expiresAt: new Date(NOW.getTime() + (i % 5 === 0 ? -1 : 1) * 48 * HOUR_MS),
  };
}

const q = useHarness(() => startQueryPlans('dip'));
let repos: ReturnType<typeof createRepositories>;
let pdfs: PdfStore;

beforeAll(async () => {
  repos = createRepositories(q.db, await Outbox.open(q.db));
  await ensureIndexes(repos);
  pdfs = new PdfStore(q.db);
  await pdfs.ensureIndexes();
  await q.db
    .collection('online_dips')
    .insertMany(Array.from({ length: 360 }, (_, i) => toDocument(dip(i))) as never[]);
  for (const [collection, name] of [
    ['dip_applications', 'dip-app'],
    ['loan_applications', 'loan-app'],
  ] as const)
    await q.db.collection(collection).insertMany(
      Array.from({ length: 200 }, (_, i) => ({
        _id: `${name}-${i}`,
        userId: `user-${i % 40}`,
        searchId: `search-${i % 120}`,
        propertyAddress: `${i} Mill Lane`,
        loanType: 'development',
        status: 'submitted',
        submittedAt: new Date(NOW.getTime() - i * HOUR_MS),
        createdAt: new Date(NOW.getTime() - i * HOUR_MS),
      })) as never[],
    );
  await q.db.collection('dip_access').insertMany(
    Array.from({ length: 300 }, (_, i) => ({
      _id: `share-${i}`,
      shareId: `share-${i}`,
      dipId: dipId(i % 60),
      shareSlug: `slug-${i % 60}`,
      inviteType: i % 2 ? 'targeted' : 'open',
      recipientEmail: `person-${i % 25}@example.com`,
      recipientUserId: i % 3 ? `user-${i % 40}` : null,
      permissions: {},
      expiresAt: null,
      revoked: false,
      grantedAt: new Date(NOW.getTime() - i * HOUR_MS),
      revokedAt: null,
    })) as never[],
  );
  await q.db.collection('saved_searches').insertMany(
    Array.from({ length: 120 }, (_, i) => ({
      _id: `search-${i}`,
      userId: `user-${i % 40}`,
      loanType: 'development',
      projectName: `Project ${i}`,
      offers: [],
      searchData: {},
      savedAt: new Date(NOW.getTime() - i * HOUR_MS),
      panelVersion: 'v1',
    })) as never[],
  );
  for (let i = 0; i < 12; i++) await pdfs.save(dipId(i), 1, Buffer.from(`%PDF-1.7 dip ${i}`));
});

describe('DIPs', () => {
  it('by id, by quote code and by the slug of its link', async () => {
    const byId = await q.readOf('online_dips', () => repos.dips.findById(dipId(42)));
    expectIndexedPlan(await q.planOf(byId), { index: '_id_' });
    const byCode = await q.readOf('online_dips', () => repos.dips.findByQuoteCode('Q0042-CODE'));
    expectIndexedPlan(await q.planOf(byCode), { index: 'quote_code_unique' });
    // The slug index holds only the slugs that exist (a partial index): a string slug is one of them.
    const bySlug = await q.readOf('online_dips', () => repos.dips.findBySlug('slug-43'));
    expectIndexedPlan(await q.planOf(bySlug), { index: 'share_slug_unique' });
  });

  it('an owner’s DIPs, newest first, and their count', async () => {
    const list = await q.readOf('online_dips', () => repos.dips.listForUser('user-7'));
    expectIndexedPlan(await q.planOf(list), { index: 'user_newest_first', sortedByIndex: true });
    const count = await q.readOf('online_dips', () => repos.dips.countForUser('user-7'));
    expectIndexedPlan(await q.planOf(count), { index: 'user_newest_first' });
  });

  it('the live DIPs issued from the products a panel change names: a lookup per product', async () => {
    const products = [
      { lenderId: LENDERS[0], productId: PRODUCTS[0], change: 'withdrawn' as const, sameTermsIn: [] },
      { lenderId: LENDERS[1], productId: PRODUCTS[1], change: 'repriced' as const, sameTermsIn: ['v1'] },
      { lenderId: LENDERS[2], productId: PRODUCTS[3], change: null, sameTermsIn: [] },
    ];
    const read = await q.readOf('online_dips', () =>
      q.db.transaction((session) =>
        repos.dips.markProductChanges({ panelVersion: 'v2', at: NOW, products }, NOW, () => [], session),
      ),
    );
    expectIndexedPlan(await q.planOf(read), { index: 'issued_product' });
  });
});

describe('applications', () => {
  it('an owner’s applications of both kinds, newest first', async () => {
    const reads = await q.readsOf(() => repos.applications.listForUser('user-7'));
    expect(reads.map((r) => r.collection).sort()).toEqual(['dip_applications', 'loan_applications']);
    for (const read of reads)
      expectIndexedPlan(await q.planOf(read), { index: 'user_newest_first', sortedByIndex: true });
  });

  it('which of an owner’s saved searches an application was made from', async () => {
    const reads = await q.readsOf(() =>
      repos.applications.searchesWithApplications('user-7', ['search-7', 'search-47', 'search-99']),
    );
    expect(reads.map((r) => r.collection).sort()).toEqual(['dip_applications', 'loan_applications']);
    for (const read of reads) expectIndexedPlan(await q.planOf(read), { index: 'user_search' });
  });
});

describe('projections and PDFs', () => {
  it('the grants that let a caller read a shared DIP: by email or by user, within the DIP', async () => {
    const read = await q.readOf('dip_access', () =>
      repos.access.grantsFor(
        { id: dipId(7), shareSlug: 'slug-7', linkRevokedAt: null },
        { userId: 'user-7', email: 'person-7@example.com' },
        NOW,
      ),
    );
    // Each branch of the caller's `$or` has its index: the union of the two lookups.
    const plan = await q.planOf(read);
    expectIndexedPlan(plan, { index: ['dip_email', 'dip_user'] });
    expect([...new Set(plan.indexes)].sort()).toEqual(['dip_email', 'dip_user']);
  });

  it('a saved search the DIP is made from, by id', async () => {
    const read = await q.readOf('saved_searches', () => repos.savedSearches.find('search-7'));
    expectIndexedPlan(await q.planOf(read), { index: '_id_' });
  });

  it('a DIP version’s PDF: its file by name, then its chunks in order', async () => {
    const reads = await q.readsOf(() => pdfs.find(dipId(3), 1));
    // The file by name, the download's own read of it by id, then its chunks.
    const [file, byId, chunks] = reads;
    expect(reads.map((r) => r.collection)).toEqual(['dip_pdfs.files', 'dip_pdfs.files', 'dip_pdfs.chunks']);
    // GridFS makes its own { filename: 1, uploadDate: 1 } index beside the store's.
    expectIndexedPlan(await q.planOf(file), { index: ['one_file_per_version', 'filename_1_uploadDate_1'] });
    expectIndexedPlan(await q.planOf(byId), { index: '_id_' });
    expectIndexedPlan(await q.planOf(chunks), { index: 'files_id_1_n_1', sortedByIndex: true });
  });
});
