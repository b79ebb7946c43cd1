import { linksIn } from '../src/dev-mail/catcher';
import { escapeHtml } from '@lsp/service-kit';
import {
  identityEmail,
  passwordChangedEmail,
  passwordResetEmail,
  verificationEmail,
} from '../src/email/templates';

describe('the verification email', () => {
  const url = 'https://loans.example.com/verify-email?token=abc&email=a%40b.co';
  const email = verificationEmail({
    name: 'Ada <Lovelace>',
    verificationUrl: url,
    expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
  });

  it('has a subject, the link in the text and an escaped link in the HTML', () => {
    expect(email.subject).toBe('Verify your email address to see your loan results');
    expect(email.text).toContain(url);
    expect(email.html).toContain(
      'href="https://loans.example.com/verify-email?token=abc&amp;email=a%40b.co"',
    );
  });

  it('greets by first name and escapes it in the HTML', () => {
    expect(email.text).toContain('Hi Ada,');
    expect(
      verificationEmail({ name: '<i>x</i>', verificationUrl: url, expiresAt: new Date().toISOString() }).html,
    ).toContain('Hi &lt;i&gt;x&lt;/i&gt;,');
  });

  it('states how long the link lasts', () => {
    expect(email.text).toContain('expires in 24 hours');
  });
});

describe('the password-reset email', () => {
  const url = 'https://loans.example.com/reset-password?token=abc"><script>x</script>&a=1';
  const email = passwordResetEmail({
    name: 'Ada <Lovelace>',
    resetUrl: url,
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  });

  it('says what it is, with the link in the text and escaped in the HTML', () => {
    expect(email.subject).toBe('Reset your password');
    expect(email.text).toContain('Hi Ada,');
    expect(email.text).toContain(url);
    expect(email.html).toContain(`href="${escapeHtml(url)}"`);
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<Lovelace>');
  });

  it('states that the link works once and how long it lasts, in minutes', () => {
    expect(email.text).toContain('This link works once and expires in 30 minutes.');
    expect(email.html).toContain('expires in 30 minutes');
  });

  it('tells someone who did not ask that nothing changes', () => {
    expect(email.text).toContain('you can ignore this email: your password stays as it is');
  });
});

describe('the password-changed notice', () => {
  const input = {
    name: 'Grace <Hopper>',
    email: 'grace&co@example.com',
    changedAt: '2026-07-01T09:05:00.000Z',
    how: 'change' as const,
    forgotPasswordUrl: 'https://loans.example.com/forgot-password',
  };

  it('says when and how it changed, in UK time, and where to go if it was not them', () => {
    const email = passwordChangedEmail(input);
    expect(email.subject).toBe('Your password has been changed');
    expect(email.text).toContain(
      '(grace&co@example.com) was changed from your account page on 1 July 2026 at 10:05 (UK time).',
    );
    expect(email.text).toContain('signed out on every other device');
    expect(email.text).toContain(input.forgotPasswordUrl);
    expect(email.html).toContain('grace&amp;co@example.com');
    expect(email.html).toContain('Hi Grace,');
    expect(email.html).toContain('href="https://loans.example.com/forgot-password"');
  });

  it('after a reset, says every device was signed out', () => {
    const email = passwordChangedEmail({ ...input, how: 'reset' });
    expect(email.text).toContain('was changed with a password reset link');
    expect(email.text).toContain('signed out on every device.');
  });
});

describe('identity emails by template', () => {
  it('renders each job with its own template, also through verificationEmail (the worker calls it)', () => {
    const reset = {
      template: 'password-reset' as const,
      name: 'Ada',
      resetUrl: 'https://x.test/reset-password?token=t',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    expect(identityEmail(reset).subject).toBe('Reset your password');
    expect(verificationEmail(reset).subject).toBe('Reset your password');
    const verify = {
      template: 'verify-email' as const,
      name: 'Ada',
      verificationUrl: 'https://x.test/verify-email?token=t',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    };
    expect(verificationEmail(verify).subject).toBe('Verify your email address to see your loan results');
    expect(identityEmail(verify).subject).toBe('Verify your email address to see your loan results');
  });
});

describe('helpers', () => {
  it('finds each link once, with &amp; turned back into &', () => {
    expect(
      linksIn('go to http://a.test/x?a=1&amp;b=2 or http://a.test/x?a=1&b=2 and https://b.test'),
    ).toEqual(['http://a.test/x?a=1&b=2', 'https://b.test']);
  });
});
