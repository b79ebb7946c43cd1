import { type CallerIdentity, identityHeaders } from '@lsp/service-kit';
import { startTestGateway } from '@lsp/gateway/testing';
import { TEST_SECRETS, leaseRedisDb, listen, useHarness, waitFor } from '@lsp/testing';
import { signUnsubscribeToken, unsubscribeKey } from '../src/alerts/unsubscribe-token';
import { handleSearchRepriced } from '../src/events/alerts';
import { PUBLIC_URL, newUserId, repriced, startAlerts } from './alerts-rig';

jest.setTimeout(60_000);

describe('re-pricing alerts', () => {
  const rig = useHarness(startAlerts);

  const as = (user: Partial<CallerIdentity> & { userId: string }) =>
    identityHeaders(
      { email: 'ana@example.com', name: 'Ana', verified: true, roles: [], ...user },
      TEST_SECRETS.INTERNAL_SECRET,
    );

  it('emails a user once per panel change, however many of their searches got better and however often the event comes', async () => {
    const { userId, email } = await rig.registerUser();

    const first = repriced(userId, '2027-01');
    const second = repriced(userId, '2027-01', { projectName: 'Mill Lane' });
    await rig.bus.publish(first);
    await rig.bus.publish(second);
    await rig.handled(first);
    const mail = await rig.smtp.waitForMessage((m) => m.to.includes(email));
    expect(mail.subject).toBe('A better offer for Chapel Street');
    expect(mail.text).toContain('Now: Harbour Bank Bridge 12: £350,000 net at 5.40% a year');
    expect(mail.text).toContain(`${PUBLIC_URL}/search-results/`);
    expect(mail.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/localhost:8080\/api\/alerts\/unsubscribe\?token=/,
    );
    // RFC 8058: the mail program may unsubscribe with one POST, without opening the page.
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // The second search of the same change, and a redelivery of the first, send nothing more.
    expect(await handleSearchRepriced(first, rig.deps)).toBe(false);
    expect(await handleSearchRepriced(second, rig.deps)).toBe(false);
    expect(await rig.alertsRecorded(userId)).toBe(1);
    // One job ever queued: the alert's id is the user's and the change's.
    const counts = await rig.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(rig.mailTo(email)).toHaveLength(1);

    // The next panel change is a new alert.
    const later = repriced(userId, '2027-02');
    expect(await handleSearchRepriced(later, rig.deps)).toBe(true);
    await waitFor(() => rig.mailTo(email).length === 2 || null, 'the second change’s email');
  });

  it('sends nothing when the best offer did not get better', async () => {
    const userId = newUserId();
    await rig.deps.alerts.saveRecipient(userId, `${userId}@example.com`, 'Bo');
    const worse = repriced(userId, '2027-03', { betterBest: false, marker: 'Terms changed' });
    expect(await handleSearchRepriced(worse, rig.deps)).toBe(false);
    expect(await rig.alertsRecorded(userId)).toBe(0);
  });

  it('turns alerts off from the dashboard setting, and on again', async () => {
    const userId = newUserId();
    await rig.deps.alerts.saveRecipient(userId, `${userId}@example.com`, 'Cy');
    const get = () => rig.app.inject({ method: 'GET', url: '/api/alerts/settings', headers: as({ userId }) });
    expect((await get()).json()).toEqual({ repricingAlerts: true });
    const off = await rig.app.inject({
      method: 'PUT',
      url: '/api/alerts/settings',
      headers: as({ userId }),
      payload: { repricingAlerts: false },
    });
    expect(off.json()).toEqual({ repricingAlerts: false });
    expect(await handleSearchRepriced(repriced(userId, '2027-04'), rig.deps)).toBe(false);
    expect(await rig.alertsRecorded(userId)).toBe(0);
    // Another user's setting is their own.
    expect(
      (
        await rig.app.inject({
          method: 'GET',
          url: '/api/alerts/settings',
          headers: as({ userId: 'someone-else' }),
        })
      ).json(),
    ).toEqual({
      repricingAlerts: true,
    });
    expect((await rig.app.inject({ method: 'GET', url: '/api/alerts/settings' })).statusCode).toBe(401);
    expect(
      (
        await rig.app.inject({
          method: 'PUT',
          url: '/api/alerts/settings',
          headers: as({ userId }),
          payload: { repricingAlerts: 'no' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it("unsubscribes by the email's signed link without signing in; a visit alone or a forged token changes nothing", async () => {
    const userId = newUserId();
    const token = signUnsubscribeToken(userId, rig.deps.unsubscribeKey);
    const url = `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
    const page = await rig.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<form method="post"');
    expect(await rig.deps.alerts.repricingAlertsOn(userId)).toBe(true);

    const forged = signUnsubscribeToken(userId, unsubscribeKey('another-secret-of-at-least-32-characters'));
    for (const bad of [forged, `${token}x`, 'nonsense']) {
      const answer = await rig.app.inject({
        method: 'POST',
        url: `/api/alerts/unsubscribe?token=${encodeURIComponent(bad)}`,
      });
      expect(answer.statusCode).toBe(400);
    }
    expect(await rig.deps.alerts.repricingAlertsOn(userId)).toBe(true);

    // As the page's form posts it: no fields, so an empty form-encoded body.
    const done = await rig.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You will not get these emails any more');
    expect(await rig.deps.alerts.repricingAlertsOn(userId)).toBe(false);
  });

  it("unsubscribes by a mail program's one-click POST (RFC 8058) through the gateway", async () => {
    const userId = newUserId();
    const token = signUnsubscribeToken(userId, rig.deps.unsubscribeKey);
    const redis = await leaseRedisDb();
    const notifications = await listen(rig.app);
    const gateway = await startTestGateway({
      redisUrl: redis.url,
      upstreams: { notifications: notifications.url },
    });
    try {
      // What a mail provider's server sends: the form body RFC 8058 fixes, no cookie, no Origin.
      const answer = await fetch(`${gateway.url}/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(answer.status).toBe(200);
      expect(await rig.deps.alerts.repricingAlertsOn(userId)).toBe(false);
      // The page is styled by one <style> element with the nonce the gateway's CSP allows, no style attributes.
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp).not.toContain('unsafe-inline');
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      const page = await answer.text();
      expect(page).toContain(`<style nonce="${nonce}">`);
      expect(page).not.toMatch(/ style="/);
    } finally {
      await gateway.close();
      await redis.release();
    }
  });
});
