import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApiError } from '../src/app/api';
import { SessionProvider } from '../src/app/session';
import {
  EMAIL_NOT_VERIFIED,
  VERIFY_EMAIL_FIRST,
  VERIFY_EMAIL_TITLE,
  VerifyEmailNotice,
  isVerificationRequired,
} from '../src/app/verify-email-notice';
import { ToastProvider } from '../src/components/toast';

/** What the pages show a signed-in person whose address is not verified yet. */
describe('the unverified-address notice', () => {
  it('tells the services’ verification 403 from every other refusal', () => {
    expect(
      isVerificationRequired(new ApiError('x', 403, { success: false, verificationRequired: true })),
    ).toBe(true);
    expect(isVerificationRequired({ success: false, error: 'x', verificationRequired: true })).toBe(true);
    expect(isVerificationRequired(new ApiError('Access denied', 403, { success: false, error: 'x' }))).toBe(
      false,
    );
    expect(isVerificationRequired(new ApiError('x', 403, null))).toBe(false);
    expect(isVerificationRequired(new Error('network'))).toBe(false);
  });

  const render = (element: ReactElement) =>
    renderToStaticMarkup(
      <SessionProvider fetchUser={async () => null}>
        <ToastProvider>{element}</ToastProvider>
      </SessionProvider>,
    );

  it('offers the resend to the address the link goes to', () => {
    const html = render(<VerifyEmailNotice email="uma@example.com" />);
    expect(html).toContain(VERIFY_EMAIL_TITLE);
    expect(html).toContain(EMAIL_NOT_VERIFIED);
    expect(html).toContain('The link goes to <strong>uma@example.com</strong>.');
    expect(html).toMatch(/<button[^>]*>.*Resend verification email.*<\/button>/s);
  });

  it('on a refused page, says why without a second resend button (the banner has it)', () => {
    const html = render(<VerifyEmailNotice email="uma@example.com" resend={false} />);
    expect(html).toContain(VERIFY_EMAIL_TITLE);
    expect(html).toContain(VERIFY_EMAIL_FIRST);
    expect(html).not.toContain('<button');
  });
});
