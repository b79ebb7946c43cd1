// Which published events the chaos reconciliation expects each consumer to handle: an event a consumer
// passes over by its own rule (and so leaves no marker for) is not counted as lost.
import {
  DEFAULT_SHARE_PERMISSIONS,
  DIP_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  type SearchRepricedEvent,
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

  const offer = (interestRate: number) => ({
    lenderName: 'Albion & Mercer Bank',
    productName: 'Bridging Loan',
    netLoan: 350000,
    interestRate,
  });
  const repriced = (userId: string, betterBest: boolean) =>
    createEnvelope<SearchRepricedEvent>('search', {
      type: SEARCH_EVENT_TYPES.repriced,
      subject: 'search-1',
      data: {
        searchId: 'search-1',
        userId,
        loanType: 'bridging',
        projectName: 'Chaos 1',
        panelVersion: 'chaos-2',
        previousVersion: 'chaos-1',
        marker: 'Terms changed',
        bestBefore: offer(0.1),
        bestAfter: betterBest ? offer(0.09) : offer(0.11),
        offersGained: 0,
        offersLost: 0,
        betterBest,
        repricedAt: new Date().toISOString(),
      },
    });
  const dipProductChanged = (userId: string) =>
    createEnvelope('dip', {
      type: DIP_EVENT_TYPES.productChanged,
      subject: userId,
      data: { userId, panelVersion: 'chaos-2', changedAt: new Date().toISOString(), dips: [] },
    });
  const facts = { knownRecipients: new Set(['user-1', 'user-2']), alertsOff: new Set(['user-2']) };

  it('expects an alert for a better best offer or a changed DIP product, to a known user with alerts on', () => {
    expect(consumerActsOn('notifications:alerts', repriced('user-1', true), facts)).toBe(true);
    expect(consumerActsOn('notifications:alerts', dipProductChanged('user-1'), facts)).toBe(true);
  });

  it('expects no alert when the best offer did not get better', () => {
    expect(consumerActsOn('notifications:alerts', repriced('user-1', false), facts)).toBe(false);
  });

  it('expects no alert for a user whose address is unknown, or who turned alerts off', () => {
    expect(consumerActsOn('notifications:alerts', repriced('user-3', true), facts)).toBe(false);
    expect(consumerActsOn('notifications:alerts', repriced('user-2', true), facts)).toBe(false);
    expect(consumerActsOn('notifications:alerts', dipProductChanged('user-2'), facts)).toBe(false);
    expect(consumerActsOn('notifications:alerts', repriced('user-1', true))).toBe(false);
  });

  it('expects every other consumer to handle every event of the types it handles', () => {
    expect(consumerActsOn('dip:access', shareCreated('open', null))).toBe(true);
    expect(consumerActsOn('sharing:registrations', shareCreated('open', null))).toBe(true);
    expect(consumerActsOn('dip:panel', repriced('user-3', false))).toBe(true);
  });
});
