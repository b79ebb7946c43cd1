// The plans of sharing's own reads: each repository method runs against the indexes sharing creates
// (ensureSharingIndexes), the find or aggregate it sent is explained as sent, and the plan must read
// through the index meant for it, never the whole collection.
import { expectIndexedPlan, startQueryPlans, useHarness } from '@lsp/testing';
import { ensureSharingIndexes, sharingCollections } from '../src/data/collections';
import { type SharingRepositories, sharingRepositories } from '../src/data/repositories';

const NOW = new Date(Date.UTC(2026, 10, 1));
const HOUR_MS = 3600 * 1000;
const dipId = (i: number) => `dip-${String(i).padStart(4, '0')}`;
const email = (i: number) => `person-${i % 50}@example.com`;

const q = useHarness(() => startQueryPlans('sharing'));
let repos: SharingRepositories;

beforeAll(async () => {
  const collections = sharingCollections(q.db);
  await ensureSharingIndexes(collections);
  repos = sharingRepositories(q.db);
  // 100 DIPs, an open link and two targeted links each; 400 'Shared with me' entries of 50 people.
  await collections.dips.insertMany(
    Array.from({ length: 100 }, (_, i) => ({
      _id: dipId(i),
      ownerUserId: `owner-${i % 20}`,
      ownerName: 'Alex Owner',
      ownerEmail: 'alex@example.com',
      quoteCode: `Q${i}`,
      shareSlug: i % 9 === 0 ? null : `slug-${i}`,
      shareUrl: null,
      status: 'active',
      expiresAt: new Date(NOW.getTime() + 48 * HOUR_MS),
      createdAt: new Date(NOW.getTime() - i * HOUR_MS),
      version: 1,
    })) as never[],
  );
  await collections.dipShares.insertMany(
    Array.from({ length: 300 }, (_, i) => {
      const dip = i % 100;
      const targeted = i >= 100;
      return {
        _id: `link-${i}`,
        dipId: dipId(dip),
        shareSlug: `slug-${dip}${i >= 200 ? '-old' : ''}`,
        ownerUserId: `owner-${dip % 20}`,
        recipientUserId: null,
        recipientEmail: targeted ? `person-${i}@example.com` : null,
        status: 'active',
        tokenHash: `hash-${i}`,
        tokenSalt: `salt-${i}`,
        inviteType: targeted ? 'targeted' : 'open',
        permissions: {},
        message: null,
        createdAt: new Date(NOW.getTime() - i * HOUR_MS),
        expiresAt: null,
        lastAccessAt: null,
      };
    }) as never[],
  );
  await collections.recipientShares.insertMany(
    Array.from({ length: 400 }, (_, i) => ({
      _id: `entry-${i}`,
      dipId: dipId(i % 100),
      email: email(i + Math.floor(i / 100)),
      linkId: `link-${i % 300}`,
      inviteType: i % 2 ? 'targeted' : 'open',
      status: i % 10 === 0 ? 'revoked' : 'active',
      recipientUserId: i % 3 ? `user-${i % 50}` : null,
      sharedAt: new Date(NOW.getTime() - i * HOUR_MS),
      viewedAt: i % 4 ? null : new Date(NOW.getTime() - i * HOUR_MS),
      dipExpiresAt: new Date(NOW.getTime() + 48 * HOUR_MS),
    })) as never[],
  );
  await collections.sharedDeals.insertMany(
    Array.from({ length: 200 }, (_, i) => ({
      _id: `deal-${i}`,
      signupToken: `token-${i}`,
      linkedUserId: null,
    })) as never[],
  );
});

describe('Shared with me', () => {
  it('the DIPs shared with an email, newest first, and the unread count', async () => {
    const list = await q.readOf('online_dip_shares', () => repos.recipients.activeFor(email(7), 50));
    expectIndexedPlan(await q.planOf(list), { index: 'email_1_sharedAt_-1', sortedByIndex: true });
    const unread = await q.readOf('online_dip_shares', () => repos.recipients.countUnread(email(7), NOW));
    expectIndexedPlan(await q.planOf(unread), { index: 'email_1_sharedAt_-1' });
  });

  it('one entry: by id, by DIP and email, and the entries a person holds on a DIP', async () => {
    const byId = await q.readOf('online_dip_shares', () => repos.recipients.findById('entry-7'));
    expectIndexedPlan(await q.planOf(byId), { index: '_id_' });
    for (const read of [
      () => repos.recipients.find(dipId(7), email(7)),
      () => repos.recipients.findActive(dipId(7), email(7)),
      () => repos.recipients.activeForPerson(dipId(7), email(7), 'user-7'),
    ])
      expectIndexedPlan(await q.planOf(await q.readOf('online_dip_shares', read)), {
        index: 'dipId_1_email_1',
      });
  });

  it('a DIP’s entries for its owner: all, through one link, and those shared by email', async () => {
    const reads = await q.readsOf(() =>
      q.db.transaction(async (session) => {
        await repos.recipients.activeOf(dipId(7), undefined, session);
        await repos.recipients.activeOf(dipId(7), 'targeted', session);
        await repos.recipients.activeThrough(dipId(7), 'link-7', session);
      }),
    );
    expect(reads).toHaveLength(3);
    for (const read of reads) expectIndexedPlan(await q.planOf(read), { index: 'dipId_1_email_1' });
    const count = await q.readOf('online_dip_shares', () =>
      repos.recipients.countActiveThrough(dipId(7), 'link-7'),
    );
    expectIndexedPlan(await q.planOf(count), { index: 'dipId_1_email_1' });
    // A DIP's own entries are few (one per person it was shared with): they are sorted once read.
    const targeted = await q.readOf('online_dip_shares', () =>
      repos.recipients.activeTargetedOf(dipId(7), 50),
    );
    expectIndexedPlan(await q.planOf(targeted), { index: 'dipId_1_email_1' });
  });
});

describe('signed links', () => {
  it('a DIP’s open link and its link for one email', async () => {
    const reads = await q.readsOf(async () => {
      await repos.links.findOpen(dipId(7));
      await repos.links.findTargeted(dipId(7), 'person-107@example.com');
      await repos.links.findActiveOpen(dipId(7), 'slug-7');
    });
    expect(reads).toHaveLength(3);
    for (const read of reads)
      expectIndexedPlan(await q.planOf(read), { index: 'dipId_1_inviteType_1_recipientEmail_1' });
  });

  it('links by id, and the DIP a link was signed for by its slug', async () => {
    const byId = await q.readOf('dip_shares', () => repos.links.findOfDip(dipId(7), 'link-7'));
    expectIndexedPlan(await q.planOf(byId), { index: '_id_' });
    const byIds = await q.readOf('dip_shares', () => repos.links.findByIds(['link-7', 'link-107']));
    expectIndexedPlan(await q.planOf(byIds), { index: '_id_' });
    // Opening a link the projection has not heard of yet, and telling a replaced link from an unknown one.
    const bySlug = await q.readOf('dip_shares', () => repos.links.dipIdWithSlug('slug-7-old'));
    expectIndexedPlan(await q.planOf(bySlug), { index: 'shareSlug_1' });
  });
});

describe('the DIP projection and shared deals', () => {
  it('a DIP by id, by the slug of its link, and the slugs of a list of DIPs', async () => {
    const byId = await q.readOf('dips', () => repos.dips.find(dipId(7)));
    expectIndexedPlan(await q.planOf(byId), { index: '_id_' });
    const bySlug = await q.readOf('dips', () => repos.dips.idWithSlug('slug-7'));
    expectIndexedPlan(await q.planOf(bySlug), { index: 'shareSlug_1' });
    const slugs = await q.readOf('dips', () => repos.dips.slugsOf([dipId(7), dipId(8), dipId(9)]));
    expectIndexedPlan(await q.planOf(slugs), { index: '_id_' });
  });

  it('a shared deal by its signup token', async () => {
    const read = await q.readOf('shared_deals', () => repos.deals.findByToken('token-7'));
    expectIndexedPlan(await q.planOf(read), { index: 'signupToken_1' });
  });
});
