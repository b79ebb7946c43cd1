import {
  AUTH_GATE_LABEL,
  LOGIN_REQUIRED_TOAST,
  canCopyLink,
  mortgageTermText,
  ownerDipState,
  ownerLinkToast,
  percentToFraction,
  sharedReadBadge,
  validityLabel,
} from '../src/dashboard/dip-display';

describe("a DIP in its owner's list", () => {
  it('reads Revoked, without Copy Link, once the owner revoked its link; Expired wins over it', () => {
    expect(ownerDipState({ isExpired: false, status: 'active' })).toBe('valid');
    expect(ownerDipState({ isExpired: false, status: 'revoked' })).toBe('revoked');
    expect(ownerDipState({ isExpired: true, status: 'revoked' })).toBe('expired');
    expect(canCopyLink('valid')).toBe(true);
    expect(canCopyLink('revoked')).toBe(false);
    expect(canCopyLink('expired')).toBe(false);
  });
});

describe('the New/Viewed badge of Shared with me', () => {
  it('agrees with the unread count: an expired, unviewed item is not New', () => {
    expect(sharedReadBadge({ isViewed: false, isExpired: false })).toBe('New');
    expect(sharedReadBadge({ isViewed: false, isExpired: true })).toBeNull();
    expect(sharedReadBadge({ isViewed: true, isExpired: true })).toBe('Viewed');
    expect(sharedReadBadge({ isViewed: true, isExpired: false })).toBe('Viewed');
  });
});

describe('the validity chip of the online DIP page', () => {
  it('counts hours up to two days, then days and hours', () => {
    expect(validityLabel(48)).toBe('Valid for 48 hours');
    expect(validityLabel(1)).toBe('Valid for 1 hour');
    expect(validityLabel(720)).toBe('Valid for 30 days (720 hours)');
    expect(validityLabel(719)).toBe('Valid for 29 days 23 hours (719 hours)');
    expect(validityLabel(49)).toBe('Valid for 2 days 1 hour (49 hours)');
    expect(validityLabel(0)).toBe('Expired');
  });
});

describe('the mortgage term', () => {
  it('is left out where the loan has none (bridging, development), never a dash', () => {
    expect(mortgageTermText(null)).toBeNull();
    expect(mortgageTermText(undefined)).toBeNull();
    expect(mortgageTermText(25)).toBe('25 years');
    expect(mortgageTermText(1)).toBe('1 year');
  });
});

describe('small view rules', () => {
  it('turns a percentage into the fraction the rate helper takes, and says the auth gate in the spec’s words', () => {
    expect(percentToFraction(13.68)).toBeCloseTo(0.1368, 10);
    expect(percentToFraction(null)).toBeNull();
    expect(AUTH_GATE_LABEL).toBe('Checking authentication...');
  });
});

describe("the DIP modal's link actions speak the spec's share toasts", () => {
  it('says Share created for a new open link, Link copied for the live one, Copy failed when the clipboard refuses', () => {
    expect(ownerLinkToast('copy', { status: 200, ok: true, madeNewLink: true }).title).toBe('Share created');
    expect(ownerLinkToast('copy', { status: 200, ok: true, madeNewLink: false }).title).toBe('Link copied');
    expect(ownerLinkToast('copy', { status: 200, ok: true, copyRefused: true })).toMatchObject({
      title: 'Copy failed',
      variant: 'error',
    });
    expect(ownerLinkToast('copy', { status: 410, ok: false, error: 'This DIP has expired' })).toEqual({
      title: 'Share creation failed',
      description: 'This DIP has expired',
      variant: 'error',
    });
  });

  it('says Link regenerated and Expiry extended (with the date), or why not', () => {
    expect(ownerLinkToast('regenerate', { status: 200, ok: true })).toMatchObject({
      title: 'Link regenerated',
      description: 'Previous link is now invalid',
    });
    expect(ownerLinkToast('regenerate', { status: 503, ok: false }).title).toBe('Regenerate failed');
    expect(ownerLinkToast('extend', { status: 200, ok: true, expiresOn: '28/12/2026' })).toMatchObject({
      title: 'Expiry extended',
      description: 'This DIP now expires on 28/12/2026',
    });
    expect(ownerLinkToast('extend', { status: 0, ok: false }).title).toBe('Extend failed');
  });

  it('says Login required whenever the session has ended', () => {
    for (const action of ['copy', 'regenerate', 'extend'] as const)
      expect(ownerLinkToast(action, { status: 401, ok: false })).toBe(LOGIN_REQUIRED_TOAST);
    expect(LOGIN_REQUIRED_TOAST.title).toBe('Login required');
  });
});
