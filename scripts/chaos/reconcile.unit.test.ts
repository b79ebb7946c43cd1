// Which published events the chaos reconciliation expects each consumer to handle: an event a consumer
// passes over by its own rule (and so leaves no marker for) is not counted as lost.
import {
  DEFAULT_SHARE_PERMISSIONS,
  SHARING_EVENT_TYPES,
  type ShareCreatedEvent,
  createEnvelope,
} from '@lsp/contracts';
import { consumerActsOn } from './reconcile';

const shareCreated = (inviteType: 'targeted' | 'open', recipientEmail: string | null) =>
  createEnvelope<ShareCreatedEvent>('sharing', {
    type: SHARING_EVENT_TYPES.shareCreated,
    subject: 'a0d5f1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
    data: {
      shareId: 'share-1',
      dipId: 'a0d5f1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      ownerUserId: 'user-1',
      sharedByName: 'Chaos Tester',
      inviteType,
      recipientEmail,
      permissions: DEFAULT_SHARE_PERMISSIONS,
      message: null,
      quoteCode: 'ABCD2345',
      shareUrl: 'http://127.0.0.1/online-dip/shared/x',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      createdAt: new Date().toISOString(),
    },
  });

describe('chaos reconciliation: which consumers act on which events', () => {
  it('expects notifications to email a targeted share, and not an open link (the copy-link fallback)', () => {
    expect(consumerActsOn('notifications:email', shareCreated('targeted', 'a@example.com'))).toBe(true);
    expect(consumerActsOn('notifications:email', shareCreated('open', null))).toBe(false);
  });

  it('expects every other consumer to handle every event of the types it handles', () => {
    expect(consumerActsOn('dip:access', shareCreated('open', null))).toBe(true);
    expect(consumerActsOn('sharing:registrations', shareCreated('open', null))).toBe(true);
  });
});
