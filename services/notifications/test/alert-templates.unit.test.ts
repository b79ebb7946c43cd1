import { dipProductAlertEmail } from '../src/email/alert-templates';

describe("the email that a panel change reached a DIP's product", () => {
  const base = {
    template: 'dip-product-alert' as const,
    name: 'Ana',
    dashboardUrl: 'http://localhost:8080/dashboard?tab=dips',
    unsubscribeUrl: 'http://localhost:8080/api/alerts/unsubscribe?token=t',
  };
  const dip = (quoteCode: string, change: 'withdrawn' | 'repriced', lenderName = 'Harbour Bank') => ({
    dipId: '3f1c2a4e-0000-4000-8000-000000000001',
    quoteCode,
    lenderName,
    productName: 'Bridge 12',
    change,
  });

  it('names each DIP, what became of its product, that its terms hold, the dashboard and the way to stop', () => {
    const email = dipProductAlertEmail({
      ...base,
      dips: [dip('HK7P-2QXM', 'withdrawn'), dip('JR4T-8WNC', 'repriced')],
    });
    expect(email.subject).toBe('The lender has changed the product of your DIPs');
    expect(email.text).toContain('DIP HK7P-2QXM: Harbour Bank Bridge 12, no longer offered');
    expect(email.text).toContain('DIP JR4T-8WNC: Harbour Bank Bridge 12, now on different terms');
    expect(email.text).toContain('Each DIP keeps its terms until it expires');
    expect(email.text).toContain('See your DIPs: http://localhost:8080/dashboard?tab=dips');
    expect(email.text).toContain('Stop these emails: http://localhost:8080/api/alerts/unsubscribe?token=t');
    expect(email.html).toContain('href="http://localhost:8080/dashboard?tab=dips"');
  });

  it('escapes what the lender panel named', () => {
    const email = dipProductAlertEmail({ ...base, dips: [dip('HK7P-2QXM', 'repriced', '<b>Bank</b> & Co')] });
    expect(email.subject).toBe('The lender has changed the product of your DIP HK7P-2QXM');
    expect(email.html).not.toContain('<b>Bank</b>');
    expect(email.html).toContain('&lt;b&gt;Bank&lt;/b&gt; &amp; Co');
  });
});
