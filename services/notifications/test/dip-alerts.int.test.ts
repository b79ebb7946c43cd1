import { randomUUID } from 'node:crypto';
import {
  DIP_EVENT_TYPES,
  type DipProductChangedEvent,
  type EventEnvelope,
  createEnvelope,
} from '@lsp/contracts';
import { useHarness, waitFor } from '@lsp/testing';
import { handleDipProductChanged, handleSearchRepriced } from '../src/events/alerts';
import { PUBLIC_URL, newUserId, repriced, startAlerts } from './alerts-rig';

jest.setTimeout(60_000);

function productChanged(userId: string, panelVersion: string): EventEnvelope {
  const data: DipProductChangedEvent = {
    userId,
    panelVersion,
    changedAt: new Date().toISOString(),
    dips: [
      {
        dipId: randomUUID(),
        quoteCode: 'HK7P-2QXM',
        lenderName: 'Harbour Bank',
        productName: 'Bridge 12',
        change: 'repriced',
      },
    ],
  };
  return createEnvelope('dip', { type: DIP_EVENT_TYPES.productChanged, subject: userId, data });
}

describe("alerts when a panel change reaches the product of a user's DIP", () => {
  const rig = useHarness(startAlerts);

  const jobsFor = async (userId: string) =>
    (await rig.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter((job) =>
      job.id?.includes(userId),
    );

  it('emails the owner once; a redelivery and a better search of the same panel change send nothing more', async () => {
    const { userId, email } = await rig.registerUser();

    const changed = productChanged(userId, '2027-05');
    await rig.bus.publish(changed);
    await rig.handled(changed);
    const mail = await rig.smtp.waitForMessage((m) => m.to.includes(email));
    expect(mail.subject).toBe('The lender has changed the product of your DIP HK7P-2QXM');
    expect(mail.text).toContain('the lender has changed the product of your Decision in Principle');
    expect(mail.text).toContain('DIP HK7P-2QXM: Harbour Bank Bridge 12, now on different terms');
    expect(mail.text).toContain('keeps its terms until it expires');
    expect(mail.text).toContain(`See your DIPs: ${PUBLIC_URL}/dashboard?tab=dips`);
    expect(mail.text).toMatch(/Stop these emails: http:\/\/localhost:8080\/api\/alerts\/unsubscribe\?token=/);
    expect(mail.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/localhost:8080\/api\/alerts\/unsubscribe\?token=/,
    );

    // Delivered again; and the same change improved one of the user's searches: one email all the same.
    expect(await handleDipProductChanged(changed, rig.deps)).toBe(false);
    const better = repriced(userId, '2027-05');
    await rig.bus.publish(better);
    await rig.handled(better);
    expect(await handleSearchRepriced(better, rig.deps)).toBe(false);
    expect(await rig.alertsRecorded(userId)).toBe(1);
    expect(await jobsFor(userId)).toHaveLength(1);
    expect(rig.mailTo(email)).toHaveLength(1);
  });

  it('sends one email, the search’s, when the better search of the change comes first', async () => {
    const userId = newUserId();
    const email = `${userId}@example.com`;
    await rig.deps.alerts.saveRecipient(userId, email, 'Bo');
    expect(await handleSearchRepriced(repriced(userId, '2027-06'), rig.deps)).toBe(true);
    expect(await handleDipProductChanged(productChanged(userId, '2027-06'), rig.deps)).toBe(false);
    await rig.smtp.waitForMessage((m) => m.to.includes(email));
    expect(rig.mailTo(email)[0]!.subject).toBe('A better offer for Chapel Street');
    expect(await rig.alertsRecorded(userId)).toBe(1);
    // The next panel change that reaches the DIP is a new email.
    expect(await handleDipProductChanged(productChanged(userId, '2027-07'), rig.deps)).toBe(true);
    await waitFor(() => rig.mailTo(email).length === 2 || null, 'the next change’s email');
  });

  it('sends nothing to a user who turned alerts off, or whose address is not known', async () => {
    const userId = newUserId();
    await rig.deps.alerts.saveRecipient(userId, `${userId}@example.com`, 'Cy');
    await rig.deps.alerts.setRepricingAlerts(userId, false);
    expect(await handleDipProductChanged(productChanged(userId, '2027-08'), rig.deps)).toBe(false);
    expect(await rig.alertsRecorded(userId)).toBe(0);
    const unknown = newUserId();
    expect(await handleDipProductChanged(productChanged(unknown, '2027-08'), rig.deps)).toBe(false);
    expect(await rig.alertsRecorded(unknown)).toBe(0);
  });
});
