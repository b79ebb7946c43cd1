// The password-reset email and the "password changed" notice, end to end:
// identity's outbox, the bus, notifications' handlers, the queue, the worker, SMTP.
import { useHarness } from '@lsp/testing';
import { latestVerificationToken } from '../../identity/test/harness';
import { startEmailPipeline } from './email-pipeline';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a much better passphrase';

jest.setTimeout(60_000);

describe('password emails, end to end', () => {
  const pipeline = useHarness(startEmailPipeline);

  it('emails a reset link that works, then tells the owner the password changed', async () => {
    const email = `forgetful.${Date.now()}@example.com`;
    const browser = pipeline.identity.browser();
    expect(
      (
        await browser.post('/api/auth/register', {
          name: 'Mary <b>Somerville</b>',
          email,
          password: PASSWORD,
        })
      ).status,
    ).toBe(201);
    const token = await latestVerificationToken(pipeline.identity, email);
    expect((await browser.get(`/api/verify-email?token=${token}`)).status).toBe(200);

    expect((await browser.post('/api/auth/forgot-password', { email })).status).toBe(200);
    const mail = await pipeline.smtp.waitForMessage(
      (m) => m.to.includes(email) && m.subject === 'Reset your password',
    );
    expect(mail.text).toContain('Hi Mary,');
    expect(mail.text).toMatch(/expires in (29|30) minutes/);
    const link = mail.text.match(/http:\/\/localhost:8080\/reset-password\?token=[^\s]+/)![0];
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    expect(mail.html).not.toContain('<b>Somerville');

    const reset = await browser.post('/api/auth/reset-password', {
      token: new URL(link).searchParams.get('token'),
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);

    const notice = await pipeline.smtp.waitForMessage(
      (m) => m.to.includes(email) && m.subject === 'Your password has been changed',
    );
    expect(notice.text).toContain(`(${email}) was changed with a password reset link`);
    expect(notice.text).toContain('signed out on every device');
    expect(notice.text).toContain('http://localhost:8080/forgot-password');
    expect(notice.text).not.toContain(link);

    expect((await browser.post('/api/login', { email, password: NEW_PASSWORD })).status).toBe(200);
    expect(pipeline.smtp.messages.filter((m) => m.to.includes(email)).map((m) => m.subject)).toEqual([
      'Verify your email address to see your loan results',
      'Reset your password',
      'Your password has been changed',
    ]);
  });

  it('sends the change notice after a signed-in change, and no email for an unknown address', async () => {
    const email = `careful.${Date.now()}@example.com`;
    const browser = pipeline.identity.browser();
    await browser.post('/api/auth/register', { name: 'Ada Lovelace', email, password: PASSWORD });
    expect((await browser.post('/api/login', { email, password: PASSWORD })).status).toBe(200);
    const unknown = `nobody.${Date.now()}@example.com`;
    expect((await browser.post('/api/auth/forgot-password', { email: unknown })).status).toBe(200);

    const changed = await browser.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);
    const notice = await pipeline.smtp.waitForMessage(
      (m) => m.to.includes(email) && m.subject === 'Your password has been changed',
    );
    expect(notice.text).toContain('from your account page');
    expect(notice.text).toContain('signed out on every other device');
    // The unknown address asked before the change, whose email has come: nothing was sent to it.
    expect(pipeline.smtp.messages.filter((m) => m.to.includes(unknown))).toEqual([]);
  });
});
