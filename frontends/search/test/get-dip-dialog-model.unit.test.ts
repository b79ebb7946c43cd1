import {
  type CreatedDip,
  type GetDipAction,
  type GetDipState,
  canDownloadPdf,
  canShare,
  deliveredTo,
  getDipReducer,
  getDipStep,
  getDipTitle,
  initialGetDipState,
  shareFallback,
  shareRecipients,
} from '../src/dip/get-dip-dialog-model';

const dip: CreatedDip = { dipId: 'dip-1', quoteCode: 'Q-ABC123', expiresAt: '2026-05-02T10:00:00.000Z' };

const run = (actions: GetDipAction[], from: GetDipState = initialGetDipState) =>
  actions.reduce(getDipReducer, from);

const createdState = run([{ kind: 'create-started' }, { kind: 'create-succeeded', created: dip }]);

describe('the Get DIP dialog model', () => {
  it('shows the offer until the DIP is created, then the DIP, then the congratulations', () => {
    expect(getDipStep(initialGetDipState)).toBe('offer');
    expect(getDipTitle(initialGetDipState)).toBe('Get a Decision in Principle');

    const creating = getDipReducer(initialGetDipState, { kind: 'create-started' });
    expect(creating.creating).toBe(true);
    expect(getDipStep(creating)).toBe('offer');

    expect(createdState).toMatchObject({ created: dip, creating: false });
    expect(getDipStep(createdState)).toBe('created');
    expect(getDipTitle(createdState)).toBe('Your Decision in Principle');

    const shared = run(
      [{ kind: 'share-started' }, { kind: 'share-sent', recipients: ['a@x.co'] }, { kind: 'share-settled' }],
      createdState,
    );
    expect(shared).toMatchObject({ sent: ['a@x.co'], sending: false });
    expect(getDipStep(shared)).toBe('shared');
    expect(getDipTitle(shared)).toBe('Congratulations!');
  });

  it('leaves the offer shown after a failed create, so Create DIP tries again', () => {
    const failed = run([{ kind: 'create-started' }, { kind: 'create-failed' }]);
    expect(failed).toEqual(initialGetDipState);
    expect(getDipStep(failed)).toBe('offer');

    const retried = run([{ kind: 'create-started' }, { kind: 'create-succeeded', created: dip }], failed);
    expect(retried.created).toEqual(dip);
  });

  it('refuses a share form with no addresses or a malformed one, in the dialog’s words', () => {
    expect(shareRecipients('  ')).toEqual({ ok: false, emailError: 'No Email Addresses' });
    expect(shareRecipients('agent@estate.co.uk, nobody@, also-bad')).toEqual({
      ok: false,
      emailError: 'Invalid Email Format: nobody@, also-bad',
    });
    expect(shareRecipients('a@x.co; b@y.co  c@z.co')).toEqual({
      ok: true,
      recipients: ['a@x.co', 'b@y.co', 'c@z.co'],
    });
  });

  it('shows a refused share’s error and clears it when a corrected one is sent', () => {
    const refused = run(
      [
        { kind: 'emails-changed', emails: 'nobody@' },
        { kind: 'share-refused', emailError: 'Invalid Email Format: nobody@' },
      ],
      createdState,
    );
    expect(refused).toMatchObject({ emailError: 'Invalid Email Format: nobody@', sending: false });

    const sending = run([{ kind: 'emails-changed', emails: 'a@x.co' }, { kind: 'share-started' }], refused);
    expect(sending).toMatchObject({ emailError: null, sending: true, emails: 'a@x.co' });
  });

  it('keeps the share form after a failed share, so Share DIP tries again', () => {
    const failed = run(
      [
        { kind: 'emails-changed', emails: 'a@x.co' },
        { kind: 'message-changed', message: 'Hi' },
        { kind: 'share-started' },
        { kind: 'share-settled' },
      ],
      createdState,
    );
    expect(failed).toMatchObject({ sending: false, sent: null, emails: 'a@x.co', message: 'Hi' });
    expect(getDipStep(failed)).toBe('created');
    expect(canShare(failed)).toBe(true);
  });

  it('shows the open link when the emails could not be handed on, and keeps it through a retry', () => {
    const fallback = shareFallback({
      shareUrl: 'https://lsp.example/shared/t0k3n',
      userMessage: '',
      error: 'Email service unavailable',
    });
    expect(fallback).toEqual({ url: 'https://lsp.example/shared/t0k3n', text: 'Email service unavailable' });
    expect(shareFallback({ shareUrl: 'u', userMessage: 'Copy this link instead', error: 'x' }).text).toBe(
      'Copy this link instead',
    );

    const fellBack = run(
      [
        { kind: 'share-started' },
        { kind: 'share-fell-back', fallback },
        { kind: 'link-copied' },
        { kind: 'share-settled' },
      ],
      createdState,
    );
    expect(fellBack).toMatchObject({ fallback, copied: true, sending: false, sent: null });
    expect(getDipStep(fellBack)).toBe('created');

    const retrying = getDipReducer(fellBack, { kind: 'share-started' });
    expect(retrying.fallback).toEqual(fallback);
    expect(getDipReducer(retrying, { kind: 'share-sent', recipients: [] }).sent).toEqual([]);
  });

  it('names only the recipients the share reached', () => {
    expect(
      deliveredTo([
        { email: 'a@x.co', success: true },
        { email: 'b@y.co', success: false },
        { email: 'c@z.co', success: true },
      ]),
    ).toEqual(['a@x.co', 'c@z.co']);
  });

  it('reads Link Copied until the copied state expires', () => {
    const copied = getDipReducer(createdState, { kind: 'link-copied' });
    expect(copied.copied).toBe(true);
    expect(getDipReducer(copied, { kind: 'copied-expired' }).copied).toBe(false);
  });

  it('prepares one PDF at a time, offers Try again after a failure, and recovers on a retry', () => {
    expect(canDownloadPdf(initialGetDipState)).toBe(false);
    expect(canDownloadPdf(createdState)).toBe(true);

    const working = getDipReducer(createdState, { kind: 'pdf-started' });
    expect(working.pdf).toBe('working');
    expect(canDownloadPdf(working)).toBe(false);

    const failed = getDipReducer(working, { kind: 'pdf-finished', outcome: 'failed' });
    expect(failed.pdf).toBe('failed');
    expect(canDownloadPdf(failed)).toBe(true);

    const retried = run([{ kind: 'pdf-started' }, { kind: 'pdf-finished', outcome: 'downloaded' }], failed);
    expect(retried.pdf).toBe('idle');
  });

  it('does not offer Try again when the PDF was refused for want of a session (a toast says so)', () => {
    const refused = run(
      [{ kind: 'pdf-started' }, { kind: 'pdf-finished', outcome: 'sign-in-required' }],
      createdState,
    );
    expect(refused.pdf).toBe('idle');
  });

  it('disables Share DIP while the address field is blank', () => {
    expect(canShare(createdState)).toBe(false);
    expect(canShare(getDipReducer(createdState, { kind: 'emails-changed', emails: '   ' }))).toBe(false);
    expect(canShare(getDipReducer(createdState, { kind: 'emails-changed', emails: 'a' }))).toBe(true);
  });
});
