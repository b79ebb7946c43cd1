import {
  AUTH_GATE_LABEL,
  canCopyLink,
  mortgageTermText,
  ownerDipState,
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
