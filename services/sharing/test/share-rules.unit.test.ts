// The pure rules of sharing (src/domain): addresses, expiry and the share-funnel's visitor.
import { invalidAddresses, invitationAddresses, sharingAddress } from '../src/domain/addresses';
import { isExpired, openLinkExpiry } from '../src/domain/expiry';
import { funnelFingerprint, funnelVisitor, keptFunnelMetadata } from '../src/domain/share-funnel';

const at = (iso: string) => new Date(iso);

describe('addresses', () => {
  it('keeps an address trimmed and in lower case', () => {
    expect(sharingAddress('  Ada@Example.CO.UK ')).toBe('ada@example.co.uk');
  });

  it('names each invited address once and leaves blank ones out', () => {
    expect(invitationAddresses(['a@example.com', ' A@example.com', '  ', 'b@example.com'])).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
  });

  it('lists the addresses that are not email addresses', () => {
    expect(invalidAddresses(['a@example.com', 'not-an-address'])).toEqual(['not-an-address']);
  });
});

describe('expiry', () => {
  it('counts a DIP or link as expired from the instant of its expiry', () => {
    const now = at('2025-01-01T12:00:00Z');
    expect(isExpired(at('2025-01-01T12:00:00Z'), now)).toBe(true);
    expect(isExpired(at('2025-01-01T12:00:01Z'), now)).toBe(false);
  });

  it('keeps an open link expiry of its own only when it is earlier than the DIP', () => {
    const dipExpiresAt = at('2025-01-10T00:00:00Z');
    expect(openLinkExpiry(at('2025-01-05T00:00:00Z'), dipExpiresAt)).toEqual(at('2025-01-05T00:00:00Z'));
    expect(openLinkExpiry(at('2025-01-20T00:00:00Z'), dipExpiresAt)).toBeNull();
    expect(openLinkExpiry(null, dipExpiresAt)).toBeNull();
  });
});

describe('share funnel', () => {
  it('knows a visitor by user, else session, else address', () => {
    expect(funnelVisitor('user-1', 'session-1', '10.0.0.1')).toBe('u:user-1');
    expect(funnelVisitor(null, 'session-1', '10.0.0.1')).toBe('s:session-1');
    expect(funnelVisitor(null, null, '10.0.0.1')).toBe('a:10.0.0.1');
  });

  it('gives the same event from the same visitor the same fingerprint, and another event another', () => {
    const opened = funnelFingerprint('u:user-1', { event: 'share_link_opened', dipId: 'dip-1' });
    expect(funnelFingerprint('u:user-1', { event: 'share_link_opened', dipId: 'dip-1' })).toBe(opened);
    expect(funnelFingerprint('u:user-1', { event: 'share_accepted', dipId: 'dip-1' })).not.toBe(opened);
  });

  it('drops metadata too long to keep', () => {
    expect(keptFunnelMetadata({ step: 2 })).toEqual({ step: 2 });
    expect(keptFunnelMetadata({ text: 'x'.repeat(5000) })).toBeNull();
    expect(keptFunnelMetadata(undefined)).toBeNull();
  });
});
