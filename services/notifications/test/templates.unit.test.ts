import { linksIn } from '../src/mail-catcher';
import { escapeHtml, verificationEmail } from '../src/templates';

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

describe('helpers', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('finds each link once, with &amp; turned back into &', () => {
    expect(
      linksIn('go to http://a.test/x?a=1&amp;b=2 or http://a.test/x?a=1&b=2 and https://b.test'),
    ).toEqual(['http://a.test/x?a=1&b=2', 'https://b.test']);
  });
});
