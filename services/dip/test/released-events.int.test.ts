// dip's consumers read the events of the last release through the real bus (Redis Streams): the released
// example payloads of search.saved and of sharing's share.created, share.viewed and share.revoked
// (packages/contracts/released/) reach the saved-search and access projections; an event of a payload
// version dip does not read (v2, published beside v1) is passed by.
import { SEARCH_EVENT_TYPES, SHARING_EVENT_TYPES, createEnvelope, dataschemaOf } from '@lsp/contracts';
import { useHarness } from '@lsp/testing';
import { releasedExamplesConsumedBy } from '@lsp/testing/src/released-events';
import { startDipHarness } from './dip-harness';

jest.setTimeout(60_000);

type Payload = Record<string, unknown>;

describe('dip reads the events of the last release', () => {
  const h = useHarness(startDipHarness);

  const released = async (type: string, shape: 'full' | 'minimal') => {
    const example = (await releasedExamplesConsumedBy('dip')).find(
      (e) => e.type === type && e.shape === shape,
    );
    if (!example) throw new Error(`no released ${shape} example of ${type} consumed by dip`);
    return { ...(example.payload as Payload) };
  };
  const publish = (type: string, subject: string, data: Payload, version = 1) =>
    h.bus.publish(createEnvelope('search', { type, subject, data, dataschema: dataschemaOf(type, version) }));

  it.each(['full', 'minimal'] as const)(
    'records the released search.saved (%s shape), not its v2',
    async (shape) => {
      const savedSearches = h.dipDb.collection<{ _id: string }>('saved_searches');
      const payload = { ...(await released(SEARCH_EVENT_TYPES.saved, shape)), searchId: `released-${shape}` };
      // v2 first: when the v1 event has been recorded, the v2 one before it on the stream was passed by.
      await publish(SEARCH_EVENT_TYPES.saved, 'v2', { ...payload, searchId: `released-${shape}-v2` }, 2);
      await publish(SEARCH_EVENT_TYPES.saved, payload.searchId, payload);
      await h.until(
        () => savedSearches.findOne({ _id: `released-${shape}` }),
        `the ${shape} search.saved recorded`,
      );
      expect(await savedSearches.findOne({ _id: `released-${shape}-v2` })).toBeNull();
    },
  );

  it('applies the released share.created, share.viewed and share.revoked to the access projection', async () => {
    const access = h.dipDb.collection<{ _id: string; revokedAt?: Date | null }>('dip_access');
    const created = await released(SHARING_EVENT_TYPES.shareCreated, 'full');
    const shareId = String(created.shareId);
    await publish(SHARING_EVENT_TYPES.shareCreated, shareId, created);
    await h.until(() => access.findOne({ _id: shareId }), 'the released share.created applied');
    await publish(
      SHARING_EVENT_TYPES.shareViewed,
      shareId,
      await released(SHARING_EVENT_TYPES.shareViewed, 'full'),
    );
    const revoked = { ...(await released(SHARING_EVENT_TYPES.shareRevoked, 'minimal')), shareId };
    await publish(SHARING_EVENT_TYPES.shareRevoked, shareId, revoked);
    await h.until(
      async () => (await access.findOne({ _id: shareId }))?.revokedAt,
      'the released share.revoked applied',
    );
  });
});
