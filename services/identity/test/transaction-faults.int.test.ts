// The failures MongoDB's drivers are built to survive, injected with the failCommand fail point into
// identity's own writes: an account registered with its two events, a password reset with its
// identity.password.changed, and the lead answers kept on the account (a retryable write outside any
// transaction). Each is asked for once through the gateway, as the browser would, and must answer
// as it would have without the fault, leaving one account and its events published once each.
import type { EventEnvelope } from '@lsp/contracts';
import { FAULTS, type FailCommandData, useFailCommand, useHarness } from '@lsp/testing';
import { MESSAGES } from '../src/data/accounts';
import {
  LEAD_INFO,
  latestResetToken,
  registerVerified,
  signedInBrowser,
  startIdentityStack,
} from './harness';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a much better passphrase';

describe('identity’s transactions under injected faults', () => {
  /** Every event identity's outbox published at commit, in order: a duplicate would show twice. */
  const published: EventEnvelope[] = [];
  const stack = useHarness(() =>
    startIdentityStack({
      testCommands: true,
      // One address sends every request of the suite; its limits have their own tests.
      env: { PASSWORD_RESET_MAX_PER_HOUR_PER_IP: '1000' },
      relayTo: { publish: async (event) => void published.push(event) },
    }),
  );
  const faults = useFailCommand(() => stack.db, { settle: () => stack.outbox.drain() });

  let counter = 0;
  const newEmail = () => `faults${++counter}.${Date.now()}@example.com`;

  /** The user's events (of these types) in identity's outbox, each published exactly once at commit. */
  async function publishedOnce(userId: string, types: string[]) {
    const events = (await stack.events()).filter(
      (event) => event.subject === userId && types.includes(event.type),
    );
    expect(await stack.outbox.handedOn(events.map((event) => event.id))).toBe(true);
    const ids = events.map((event) => event.id);
    expect(published.filter((event) => ids.includes(event.id)).map((event) => event.id)).toEqual(ids);
    return events;
  }

  describe('an account registered', () => {
    async function registerThrough(fault: FailCommandData) {
      const email = newEmail();
      await faults.failNext(fault);
      const res = await stack
        .browser()
        .post('/api/auth/register', { name: 'Ada Lovelace', email, password: PASSWORD });
      expect(res.status).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        success: true,
        message: MESSAGES.registered,
        requiresVerification: true,
        user: { name: 'Ada Lovelace', email, verified: false },
      });
      const accounts = await stack.users.find({ email }).lean();
      expect(accounts.map((user) => String(user._id))).toEqual([body.user.id]);
      const types = ['identity.user.registered', 'identity.verification.requested'];
      const events = await publishedOnce(body.user.id, types);
      expect(events.map((event) => event.type)).toEqual(types);
    }

    it('a transient error on its insert: the transaction runs again, one account, its two events', async () => {
      await registerThrough(FAULTS.transientErrorOn('insert'));
      expect(faults.failed('insert', 'users')).toBe(1);
      expect(faults.sent('insert', 'users')).toBe(2);
      expect(faults.sent('abortTransaction')).toBe(1);
    });

    it('a commit whose result is unknown: the commit is sent again, one account, its two events', async () => {
      await registerThrough(FAULTS.unknownCommitResult);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'users')).toBe(1);
    });

    it('a commit applied but not confirmed: committed again without a second account', async () => {
      await registerThrough(FAULTS.appliedCommitUnconfirmed);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('insert', 'users')).toBe(1);
    });
  });

  describe('a password reset with an emailed link', () => {
    async function resetThrough(fault: FailCommandData) {
      const email = newEmail();
      await registerVerified(stack, { name: 'Ada Lovelace', email, password: PASSWORD });
      expect((await stack.browser().post('/api/auth/forgot-password', { email })).status).toBe(200);
      const token = await latestResetToken(stack, email);
      const userId = String((await stack.users.findOne({ email }).lean())!._id);
      await faults.failNext(fault);
      const res = await stack.browser().post('/api/auth/reset-password', {
        token,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ success: true });
      // The new password is the one that signs in, and the link was used up.
      await signedInBrowser(stack, email, NEW_PASSWORD);
      expect((await stack.users.findById(userId).lean())!.passwordResetToken).toBeNull();
      const changed = await publishedOnce(userId, ['identity.password.changed']);
      expect(changed.map((event) => event.data.how)).toEqual(['reset']);
    }

    it('a transient error on its update: the transaction runs again, one identity.password.changed', async () => {
      await resetThrough(FAULTS.transientErrorOn('findAndModify'));
      expect(faults.failed('findAndModify', 'users')).toBe(1);
      expect(faults.sent('findAndModify', 'users')).toBe(2);
    });

    it('a commit whose result is unknown: the commit is sent again, one identity.password.changed', async () => {
      await resetThrough(FAULTS.unknownCommitResult);
      expect(faults.failed('commitTransaction')).toBe(1);
      expect(faults.sent('commitTransaction')).toBe(2);
      expect(faults.sent('findAndModify', 'users')).toBe(1);
    });
  });

  it('a network error on keeping the lead answers: the write is sent again and kept', async () => {
    const email = newEmail();
    await registerVerified(stack, { name: 'Ada Lovelace', email, password: PASSWORD });
    const browser = await signedInBrowser(stack, email, PASSWORD);
    const userId = String((await stack.users.findOne({ email }).lean())!._id);
    await faults.failNext(FAULTS.networkErrorOn('update'));
    const res = await browser.post('/api/save-lead-info', {
      userId,
      leadInfo: LEAD_INFO,
      searchData: { loanType: 'development' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(faults.failed('update', 'users')).toBe(1);
    expect(faults.sent('update', 'users')).toBe(2);
    const { fullName: _name, ...answers } = LEAD_INFO;
    expect(await stack.users.findById(userId).lean()).toMatchObject({
      ...answers,
      leadSearchData: { loanType: 'development' },
    });
  });
});
