import { NAME_FORBIDDEN_CHARACTERS, SHARING_EVENT_TYPES, createEnvelope } from '@lsp/contracts';
import { sharingEmail } from '../src/email/sharing-templates';
import { sharingEmailJobFor } from '../src/events/consumed';

const shareCreated = (extra: Record<string, unknown> = {}) =>
  createEnvelope('sharing', {
    type: SHARING_EVENT_TYPES.shareCreated,
    subject: '7f0c5a53-4a07-4a5e-9c43-3f0b1c1c2a11',
    data: {
      shareId: 'share-1',
      dipId: '7f0c5a53-4a07-4a5e-9c43-3f0b1c1c2a11',
      ownerUserId: 'user-1',
      sharedByName: 'Olivia Owner',
      inviteType: 'targeted',
      recipientEmail: 'agent@example.co.uk',
      permissions: { view: true, downloadPdf: true },
      message: null,
      quoteCode: 'DIP-1234',
      shareUrl: 'http://localhost:8080/shared/slug?e=x&sig=y',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      createdAt: new Date().toISOString(),
      ...extra,
    },
  });

describe('DIP share emails', () => {
  it('emails a targeted share, also one from before emailRecipient existed', () => {
    expect(sharingEmailJobFor(shareCreated())).toMatchObject({
      template: 'dip-shared',
      to: 'agent@example.co.uk',
    });
    expect(sharingEmailJobFor(shareCreated({ emailRecipient: true }))).not.toBeNull();
  });

  it('sends no email for a repeat share within a day (emailRecipient false)', () => {
    expect(sharingEmailJobFor(shareCreated({ emailRecipient: false }))).toBeNull();
  });

  it('keeps control and text-direction characters of a name stored before the rule out of the subject', () => {
    const email = sharingEmail({
      template: 'dip-shared',
      senderName: 'Ann\u202Efdp.exe\r\nBcc: x@example.net\u0007',
      message: null,
      link: 'http://localhost:8080/shared/slug',
      quoteCode: 'DIP-1234',
    });
    expect(email.subject).toBe('Annfdp.exeBcc: x@example.net shared a Decision in Principle with you');
    expect(email.subject).not.toMatch(NAME_FORBIDDEN_CHARACTERS);
    expect(
      sharingEmail({
        template: 'referral-invitation',
        senderName: '\u202E\u0007',
        message: null,
        link: 'http://x.example/',
      }).subject,
    ).toBe('Someone invited you to LoanSearch UK');
  });
});
