import { DIP_EVENT_TYPES, type DipCreatedEvent, type DipState, SHARING_MESSAGES } from '@lsp/contracts';
import { useHarness } from '@lsp/testing';
import { ShareLinkSigner } from '../src/domain/signed-links';
import { PREVIOUS_SHARE_LINK_SECRET, dipEvent, startSharingHarness } from './sharing-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('DIP shares through the gateway', () => {
  const h = useHarness(() =>
    startSharingHarness({
      SHARE_LINK_PREVIOUS_SECRET: PREVIOUS_SHARE_LINK_SECRET,
      SHARE_LINK_PREVIOUS_SECRET_UNTIL: new Date(Date.now() + 3600_000).toISOString(),
    }),
  );
  beforeEach(() => {
    h.clock.now = new Date();
  });

  /** Owner, DIP and one targeted share; answers the link from share.created (the emailed one). */
  async function sharedTo(email: string, message = 'Have a look') {
    const owner = await h.signedIn({ name: 'Olivia Owner' });
    const dip = await h.createDip(owner.user);
    const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
      recipients: [email],
      message,
    });
    expect(res.status).toBe(201);
    const shareId = res.json().results[0].shareId as string;
    const created = (await h.outboxEvents('share.created')).filter((e) => e.data.shareId === shareId).at(-1);
    const link = new URL(created!.data.shareUrl as string);
    return {
      owner,
      dip,
      shareId,
      link,
      path: `/api/online-dip/shared/${link.pathname.split('/').at(-1)}${link.search}`,
    };
  }

  describe('POST /api/online-dip/{dipId}/share', () => {
    it('creates a targeted share per recipient and writes share.created with a signed link', async () => {
      const owner = await h.signedIn({ name: 'Olivia Owner' });
      const dip = await h.createDip(owner.user);
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        recipients: ['Ann@Example.co.uk', 'bob@example.co.uk', 'ann@example.co.uk'],
        message: 'For your review',
      });
      expect(res.status).toBe(201);
      expect(res.json()).toMatchObject({ success: true, sent: 2, failed: 0 });
      const events = (await h.outboxEvents('share.created')).filter((e) => e.data.dipId === dip.dipId);
      expect(events.map((e) => e.data.recipientEmail).sort()).toEqual([
        'ann@example.co.uk',
        'bob@example.co.uk',
      ]);
      const url = new URL(events[0].data.shareUrl as string);
      expect(url.pathname).toBe(`/shared/${dip.shareSlug}`);
      expect(Buffer.from(url.searchParams.get('e')!, 'base64url').toString()).toBe(
        events[0].data.recipientEmail,
      );
      expect(events[0].data).toMatchObject({
        sharedByName: 'Olivia Owner',
        message: 'For your review',
        inviteType: 'targeted',
      });
      const stored = await h.collections.dipShares.find({ dipId: dip.dipId }).toArray();
      expect(stored).toHaveLength(2);
      const sig = url.searchParams.get('sig')!;
      // Only a salted hash is kept: the signature appears nowhere in the stored shares.
      expect(JSON.stringify(stored)).not.toContain(sig);
      expect(stored.every((s) => s.tokenSalt.length === 32 && s.tokenHash.length === 64)).toBe(true);
    });

    it('refuses no recipients, a bad email, another user, an anonymous caller, an unknown and an expired DIP', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const path = `/api/online-dip/${dip.dipId}/share`;
      expect((await owner.client.post(path, { recipients: [] })).json().error).toBe(
        SHARING_MESSAGES.noEmails,
      );
      const bad = await owner.client.post(path, { recipients: ['good@example.co.uk', 'not an email'] });
      expect(bad.status).toBe(400);
      expect(bad.json().error).toBe(`${SHARING_MESSAGES.invalidEmails}: not an email`);
      const other = await h.signedIn();
      expect((await other.client.post(path, { recipients: ['x@example.co.uk'] })).status).toBe(403);
      expect((await h.client().post(path, { recipients: ['x@example.co.uk'] })).status).toBe(401);
      const unknown = await owner.client.post('/api/online-dip/3f1c2a8e-0000-4000-8000-000000000001/share', {
        recipients: ['x@example.co.uk'],
      });
      expect(unknown.status).toBe(404);
      h.clock.now = new Date(Date.now() + 49 * 3600_000);
      const expired = await owner.client.post(path, { recipients: ['x@example.co.uk'] });
      expect(expired.status).toBe(410);
      expect(await h.collections.dipShares.countDocuments({ dipId: dip.dipId })).toBe(0);
    });

    it("refuses the owner's own address (400, whatever its case) and shares with nobody in that request", async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        recipients: ['friend@example.co.uk', ` ${owner.user.email.toUpperCase()} `],
      });
      expect(res.status).toBe(400);
      expect(res.json().error).toBe(SHARING_MESSAGES.ownEmailAddress);
      expect(await h.collections.dipShares.countDocuments({ dipId: dip.dipId })).toBe(0);
      expect((await owner.client.get('/api/shared')).json().items).toEqual([]);
      expect((await h.outboxEvents('share.created')).filter((e) => e.data.dipId === dip.dipId)).toEqual([]);
    });

    it('answers the open link for the owner, which any signed-in user may open', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' });
      expect(res.status).toBe(200);
      const url = new URL(res.json().url);
      expect(url.pathname).toBe(`/shared/${dip.shareSlug}`);
      const opener = await h.signedIn();
      const opened = await opener.client.get(`/api/online-dip/shared/${dip.shareSlug}${url.search}`);
      expect(opened.status).toBe(200);
      expect(opened.json()).toMatchObject({
        accessMethod: 'open-link',
        permissions: { readOnly: true, view: true, downloadPdf: true },
      });
      const viewed = (await h.outboxEvents('share.viewed')).filter((e) => e.data.dipId === dip.dipId);
      expect(viewed).toHaveLength(1);
      expect(viewed[0].data).toMatchObject({
        recipientUserId: opener.user.userId,
        recipientEmail: opener.user.email,
      });
      const list = (await opener.client.get('/api/shared')).json().items;
      expect(list.map((i: { dipId: string }) => i.dipId)).toEqual([dip.dipId]);
      // dip learns of the link (share.created) and of each opener through it (linkId), so that an
      // opener may also download the PDF there.
      const created = (await h.outboxEvents('share.created')).filter((e) => e.data.dipId === dip.dipId);
      expect(created.map((e) => e.data)).toEqual([
        expect.objectContaining({
          shareId: res.json().shareId,
          inviteType: 'open',
          recipientEmail: null,
          expiresWithDip: true,
        }),
      ]);
      expect(viewed[0].data.linkId).toBe(res.json().shareId);
    });

    /** The fallback's link, opened by the person the email was for: it must show them the DIP. */
    async function opensForRecipient(shareUrl: string, email: string) {
      const url = new URL(shareUrl);
      expect(url.pathname).toMatch(/^\/shared\//);
      const recipient = await h.signedIn({ email });
      return (
        await recipient.client.get(`/api/online-dip/shared/${url.pathname.split('/').at(-1)}${url.search}`)
      ).status;
    }

    it('falls back to a link the recipient can open when the share cannot be recorded', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const add = h.outbox.add.bind(h.outbox);
      let failures = 0;
      h.outbox.add = async (...args) => {
        if (failures++ === 0) throw new Error('outbox unavailable');
        return add(...args);
      };
      let res;
      try {
        res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
          recipients: ['z@example.co.uk'],
        });
      } finally {
        h.outbox.add = add;
      }
      expect(res.status).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        fallback: true,
        shareUrl: expect.any(String),
        userMessage: SHARING_MESSAGES.emailUnavailable,
        error: SHARING_MESSAGES.emailUnavailable,
      });
      // Not the owner's /dip/{slug} page, which the recipient cannot open: the open (Copy Link) link.
      expect(res.json().shareUrl).not.toBe(dip.shareUrl);
      expect(await opensForRecipient(res.json().shareUrl, 'z@example.co.uk')).toBe(200);
      expect(await h.collections.dipShares.countDocuments({ dipId: dip.dipId, inviteType: 'targeted' })).toBe(
        0,
      );
    });

    it("says 'Email Service Unavailable' with an openable link when the emails cannot be handed on for sending", async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      // The email goes out from share.created: the bus refuses it at commit, as when it is down.
      let busDown = true;
      h.outbox.publishAtCommit({
        bus: {
          publish: async () => {
            if (busDown) throw new Error('bus unavailable');
          },
        },
      });
      let res;
      try {
        res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
          recipients: ['mailless@example.co.uk'],
          message: 'See attached',
        });
      } finally {
        busDown = false;
      }
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({
        success: false,
        fallback: true,
        userMessage: SHARING_MESSAGES.emailUnavailable,
        error: SHARING_MESSAGES.emailUnavailable,
      });
      expect(await opensForRecipient(res.json().shareUrl, 'mailless@example.co.uk')).toBe(200);
      // The share stands (in 'Shared with me'); its email goes when the relay can publish it.
      const pending = await h.outbox
        .collection()
        .countDocuments({ type: 'share.created', publishedAt: null, payload: /mailless@example\.co\.uk/ });
      expect(pending).toBe(1);

      // With the bus back, the same share is a plain success.
      const again = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        recipients: ['mailed@example.co.uk'],
      });
      expect(again.status).toBe(201);
    });
  });

  describe("the owner's Revoke", () => {
    it('lists who a DIP is shared with and revokes one recipient, then the open link, each at once', async () => {
      const { owner, dip, shareId, path } = await sharedTo('keep@example.co.uk');
      const keep = await h.signedIn({ email: 'keep@example.co.uk' });
      const second = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        recipients: ['drop@example.co.uk'],
      });
      const dropId = second.json().results[0].shareId as string;
      const drop = await h.signedIn({ email: 'drop@example.co.uk' });
      const open = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' });
      const openUrl = new URL(open.json().url);
      const openPath = `/api/online-dip/shared/${openUrl.pathname.split('/').at(-1)}${openUrl.search}`;
      const opener = await h.signedIn({ email: 'passer-by@example.co.uk' });
      expect((await opener.client.get(openPath)).status).toBe(200);

      const listed = await owner.client.get(`/api/online-dip/${dip.dipId}/shares`);
      expect(listed.status).toBe(200);
      expect(
        listed
          .json()
          .recipients.map((r: { email: string }) => r.email)
          .sort(),
      ).toEqual(['drop@example.co.uk', 'keep@example.co.uk']);
      expect(listed.json().openLink).toMatchObject({ shareId: open.json().shareId, openedBy: 1 });
      // Only the owner sees or revokes them.
      expect((await keep.client.get(`/api/online-dip/${dip.dipId}/shares`)).status).toBe(403);
      expect(
        (await keep.client.post(`/api/online-dip/${dip.dipId}/shares/${dropId}/revoke`, {})).status,
      ).toBe(403);
      expect(
        (await owner.client.post(`/api/online-dip/${dip.dipId}/shares/no-such-share/revoke`, {})).status,
      ).toBe(404);

      const revoked = await owner.client.post(`/api/online-dip/${dip.dipId}/shares/${dropId}/revoke`, {});
      expect(revoked.status).toBe(200);
      expect(revoked.json()).toEqual({ success: true, shareId: dropId, inviteType: 'targeted' });
      expect((await drop.client.get('/api/shared')).json().items).toEqual([]);
      expect((await drop.client.get(`/api/shared/dips/${dip.dipId}`)).status).not.toBe(200);
      expect((await keep.client.get(path)).status).toBe(200);
      const events = (await h.outboxEvents('share.revoked')).filter((e) => e.data.dipId === dip.dipId);
      expect(events.map((e) => [e.data.shareId, e.data.reason])).toEqual([[dropId, 'owner']]);
      // Twice is harmless and tells dip nothing new.
      expect(
        (await owner.client.post(`/api/online-dip/${dip.dipId}/shares/${dropId}/revoke`, {})).status,
      ).toBe(200);
      expect((await h.outboxEvents('share.revoked')).filter((e) => e.data.dipId === dip.dipId)).toHaveLength(
        1,
      );

      const openRevoked = await owner.client.post(
        `/api/online-dip/${dip.dipId}/shares/${open.json().shareId}/revoke`,
        {},
      );
      expect(openRevoked.json()).toMatchObject({ inviteType: 'open' });
      expect((await opener.client.get(openPath)).status).toBe(404);
      expect((await opener.client.get('/api/shared')).json().items).toEqual([]);
      expect((await keep.client.get('/api/shared')).json().items).toHaveLength(1);
      const after = (await owner.client.get(`/api/online-dip/${dip.dipId}/shares`)).json();
      expect(after.recipients.map((r: { shareId: string }) => r.shareId)).toEqual([shareId]);
      expect(after.openLink).toBeNull();
      // Copy Link makes a new open link, which opens; sharing again to the revoked address restores it.
      const fresh = new URL(
        (await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' })).json().url,
      );
      expect(
        (await opener.client.get(`/api/online-dip/shared/${fresh.pathname.split('/').at(-1)}${fresh.search}`))
          .status,
      ).toBe(200);
    });
    it('never hands a revoked open link out again: Copy Link after a revoke makes a different URL', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const copyLink = async () =>
        new URL(
          (await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' })).json().url,
        );
      const pathOf = (url: URL) => `/api/online-dip/shared/${url.pathname.split('/').at(-1)}${url.search}`;
      const first = await copyLink();
      // While the link is live, Copy Link gives the same URL, so a copy already handed out keeps working.
      expect((await copyLink()).toString()).toBe(first.toString());
      const shareId = (await owner.client.get(`/api/online-dip/${dip.dipId}/shares`)).json().openLink.shareId;
      expect(
        (await owner.client.post(`/api/online-dip/${dip.dipId}/shares/${shareId}/revoke`, {})).status,
      ).toBe(200);

      const second = await copyLink();
      expect(second.toString()).not.toBe(first.toString());
      const stranger = await h.signedIn();
      expect((await stranger.client.get(pathOf(first))).status).toBe(404);
      expect((await stranger.client.get(pathOf(second))).status).toBe(200);
      // Revoked again, neither URL comes back with the next Copy Link.
      expect(
        (await owner.client.post(`/api/online-dip/${dip.dipId}/shares/${shareId}/revoke`, {})).status,
      ).toBe(200);
      const third = await copyLink();
      expect([first.toString(), second.toString()]).not.toContain(third.toString());
      const another = await h.signedIn();
      expect((await another.client.get(pathOf(first))).status).toBe(404);
      expect((await another.client.get(pathOf(second))).status).toBe(404);
      expect((await another.client.get(pathOf(third))).status).toBe(200);
    });
  });

  describe('GET /api/online-dip/shared/{slug}', () => {
    it('shows the DIP to the recipient, read-only, and marks it viewed once', async () => {
      const { dip, shareId, path } = await sharedTo('rita@example.co.uk');
      const recipient = await h.signedIn({ email: 'Rita@example.co.uk' });
      const res = await recipient.client.get(path);
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        dip: { id: dip.dipId, quote_code: dip.quoteCode, expires_at: dip.expiresAt },
        shareInfo: { shareId, shared_by: 'Olivia Owner', message: 'Have a look' },
        permissions: { readOnly: true, view: true, downloadPdf: true },
        accessMethod: 'signed-link',
      });
      await recipient.client.get(path);
      expect((await h.outboxEvents('share.viewed')).filter((e) => e.data.shareId === shareId)).toHaveLength(
        1,
      );
    });

    it('answers 400 without e or sig, 401 signed out, 403 with a sign-out offer for another email', async () => {
      const { path, link } = await sharedTo('tom@example.co.uk');
      const slugPath = path.split('?')[0];
      const someone = await h.signedIn();
      for (const query of ['', `?e=${link.searchParams.get('e')}`, `?sig=${link.searchParams.get('sig')}`]) {
        const res = await someone.client.get(`${slugPath}${query}`);
        expect(res.status).toBe(400);
        expect(res.json().error).toBe(SHARING_MESSAGES.linkMissingParameters);
      }
      expect((await h.client().get(path)).status).toBe(401);
      const wrong = await someone.client.get(path);
      expect(wrong.status).toBe(403);
      expect(wrong.json()).toMatchObject({ error: SHARING_MESSAGES.wrongAccount, canSignOut: true });
    });

    it('refuses a tampered sig, e or expiry', async () => {
      const { path, link, shareId } = await sharedTo('tamper@example.co.uk');
      const slugPath = path.split('?')[0];
      const recipient = await h.signedIn({ email: 'tamper@example.co.uk' });
      const e = link.searchParams.get('e')!;
      const sig = link.searchParams.get('sig')!;
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
      expect((await recipient.client.get(`${slugPath}?e=${e}&sig=${flipped}`)).status).toBe(404);
      const other = await h.signedIn({ email: 'other@example.co.uk' });
      const otherE = Buffer.from('other@example.co.uk').toString('base64url');
      expect((await other.client.get(`${slugPath}?e=${otherE}&sig=${sig}`)).status).toBe(404);
      // The expiry is part of what is signed: an expiry stored by anyone but the signer breaks it.
      await h.collections.dipShares.updateOne(
        { _id: shareId },
        { $set: { expiresAt: new Date(Date.now() + 86_400_000) } },
      );
      expect((await recipient.client.get(path)).status).toBe(404);
    });

    it('answers 404 after the link is regenerated or revoked, and 410 after expiry', async () => {
      const regen = await sharedTo('regen@example.co.uk');
      const recipient = await h.signedIn({ email: 'regen@example.co.uk' });
      expect((await recipient.client.get(regen.path)).status).toBe(200);
      const open = await regen.owner.client.post(`/api/online-dip/${regen.dip.dipId}/share`, {
        inviteType: 'open',
      });
      const openUrl = new URL(open.json().url);
      const opener = await h.signedIn({ email: 'opener@example.co.uk' });
      const openPath = `/api/online-dip/shared/${openUrl.pathname.split('/').at(-1)}${openUrl.search}`;
      expect((await opener.client.get(openPath)).status).toBe(200);
      const openerEntry = await h.collections.recipientShares.findOne({
        dipId: regen.dip.dipId,
        email: 'opener@example.co.uk',
      });
      h.ownerStates.set(regen.dip.dipId, {
        ...(({ searchId: _s, loanIndex: _l, validityHours: _v, ...state }) => state)(regen.dip),
        status: 'active',
        version: 2,
        shareSlug: 'a-new-slug-0123456789abcdef',
        shareUrl: 'http://localhost:8080/dip/a-new-slug-0123456789abcdef',
      });
      await h.deliver(
        dipEvent(DIP_EVENT_TYPES.linkRegenerated, {
          dipId: regen.dip.dipId,
          ownerUserId: regen.owner.user.userId,
          version: 2,
          shareSlug: 'a-new-slug-0123456789abcdef',
          shareUrl: 'http://localhost:8080/dip/a-new-slug-0123456789abcdef',
          previousShareSlug: regen.dip.shareSlug,
          regeneratedAt: new Date().toISOString(),
        }),
      );
      // The recipient by email still has the DIP: the 404 says the link was replaced and where it is.
      const gone = await recipient.client.get(regen.path);
      expect(gone.status).toBe(404);
      expect(gone.json()).toMatchObject({
        error: SHARING_MESSAGES.linkReplaced,
        linkReplaced: true,
        dipId: regen.dip.dipId,
      });
      // Whoever does not have it (the open link's opener, a stranger) meets the plain 404.
      const openerGone = await opener.client.get(openPath);
      expect(openerGone.status).toBe(404);
      expect(openerGone.json()).toEqual(expect.not.objectContaining({ linkReplaced: true }));
      expect(openerGone.json().error).toBe(SHARING_MESSAGES.notFound);
      const stranger = await (await h.signedIn()).client.get(regen.path);
      expect(stranger.status).toBe(404);
      expect(stranger.json().error).toBe(SHARING_MESSAGES.notFound);
      expect(stranger.json().dipId).toBeUndefined();
      // Only the open link's people lose the DIP: whoever it was shared with by
      // email keeps it in 'Shared with me', opens it there, and dip is told to revoke nothing of theirs.
      const revoked = (await h.outboxEvents('share.revoked')).filter((e) => e.data.dipId === regen.dip.dipId);
      expect(revoked.map((e) => [e.data.reason, e.data.shareId])).toEqual([
        ['link-regenerated', openerEntry!._id],
      ]);
      expect((await opener.client.get('/api/shared')).json().items).toEqual([]);
      const kept = (await recipient.client.get('/api/shared')).json().items;
      expect(kept.map((i: { dipId: string; shareSlug: string }) => [i.dipId, i.shareSlug])).toEqual([
        [regen.dip.dipId, 'a-new-slug-0123456789abcdef'],
      ]);
      expect((await recipient.client.get(`/api/shared/dips/${regen.dip.dipId}`)).status).toBe(200);
      /** What sharing answers dip about the recipient by email on the regenerated link. */
      const recipientAccess = (extra: { linkRevokedAt?: string } = {}) =>
        h.internalAccess({
          dipId: regen.dip.dipId,
          shareSlug: 'a-new-slug-0123456789abcdef',
          email: 'regen@example.co.uk',
          userId: recipient.user.userId,
          ...extra,
        });
      const access = await recipientAccess();
      expect(access.grants.map((g) => g.shareId)).toEqual([regen.shareId]);
      // Unless the owner revoked the link after it was shared (sharing not having applied that yet).
      const afterRevoke = await recipientAccess({ linkRevokedAt: new Date(Date.now() + 1000).toISOString() });
      expect(afterRevoke.grants).toEqual([]);
      const beforeRevoke = await recipientAccess({
        linkRevokedAt: new Date(Date.now() - 3600_000).toISOString(),
      });
      expect(beforeRevoke.grants.map((g) => g.shareId)).toEqual([regen.shareId]);
      const openerAccess = await h.internalAccess({
        dipId: regen.dip.dipId,
        shareSlug: 'a-new-slug-0123456789abcdef',
        email: 'opener@example.co.uk',
        userId: opener.user.userId,
      });
      expect(openerAccess.grants).toEqual([]);

      const rev = await sharedTo('revoked@example.co.uk');
      const revRecipient = await h.signedIn({ email: 'revoked@example.co.uk' });
      await h.deliver(
        dipEvent(DIP_EVENT_TYPES.revoked, {
          dipId: rev.dip.dipId,
          ownerUserId: rev.owner.user.userId,
          version: 2,
          previousShareSlug: rev.dip.shareSlug,
          revokedAt: new Date().toISOString(),
        }),
      );
      expect((await revRecipient.client.get(rev.path)).status).toBe(404);

      const exp = await sharedTo('expires@example.co.uk');
      const expRecipient = await h.signedIn({ email: 'expires@example.co.uk' });
      h.clock.now = new Date(Date.now() + 49 * 3600_000);
      const expired = await expRecipient.client.get(exp.path);
      expect(expired.status).toBe(410);
      expect(expired.json().error).toBe(SHARING_MESSAGES.expired);
    });

    it('accepts a link signed with the previous secret during its grace period', async () => {
      const { path, link, shareId } = await sharedTo('rotate@example.co.uk');
      const recipient = await h.signedIn({ email: 'rotate@example.co.uk' });
      // Re-sign the stored link as the previous secret would have, as before a rotation.
      const old = new ShareLinkSigner({
        PUBLIC_URL: 'http://localhost:8080',
        SHARE_LINK_SECRET: PREVIOUS_SHARE_LINK_SECRET,
      });
      const share = await h.collections.dipShares.findOne({ _id: shareId });
      const issued = old.issue(share!.shareSlug, 'rotate@example.co.uk', share!.expiresAt);
      await h.collections.dipShares.updateOne(
        { _id: shareId },
        { $set: { tokenHash: issued.tokenHash, tokenSalt: issued.tokenSalt } },
      );
      const oldUrl = new URL(issued.url);
      expect((await recipient.client.get(`${path.split('?')[0]}${oldUrl.search}`)).status).toBe(200);
      expect(link.search).not.toBe(oldUrl.search);
    });
  });

  describe('the recipient list', () => {
    it('lists shares newest first, counts unread, and mark-viewed is idempotent with one share.viewed', async () => {
      const email = `list-${Date.now()}@example.co.uk`;
      const first = await sharedTo(email, 'first');
      h.clock.now = new Date(Date.now() + 1000);
      const second = await sharedTo(email, 'second');
      const recipient = await h.signedIn({ email });
      const list = await recipient.client.get('/api/shared');
      expect(list.status).toBe(200);
      const items = list.json().items;
      expect(items.map((i: { shareId: string }) => i.shareId)).toEqual([second.shareId, first.shareId]);
      expect(items[0]).toMatchObject({
        dipId: second.dip.dipId,
        isViewed: false,
        isExpired: false,
        status: 'new',
        sharedBy: 'Olivia Owner',
        message: 'second',
        quoteCode: second.dip.quoteCode,
        quote_code: second.dip.quoteCode,
        share_slug: second.dip.shareSlug,
        from: { name: 'Olivia Owner' },
        snapshot: {
          lenderName: 'Harbour Bridging',
          netLoan: 350000,
          interestRate: 0.102,
          loanType: 'bridging',
        },
      });
      expect((await recipient.client.get('/api/shared/unread-count')).json().count).toBe(2);
      for (let i = 0; i < 2; i += 1) {
        const marked = await recipient.client.post(`/api/shared/${first.shareId}/mark-viewed`);
        expect(marked.status).toBe(200);
      }
      expect(
        (await h.outboxEvents('share.viewed')).filter((e) => e.data.shareId === first.shareId),
      ).toHaveLength(1);
      expect((await recipient.client.get('/api/shared/unread-count')).json().count).toBe(1);
      const detail = await recipient.client.get(`/api/shared/dips/${first.dip.dipId}`);
      expect(detail.status).toBe(200);
      expect(detail.json()).toMatchObject({
        accessMethod: 'recipient',
        shareInfo: { shareId: first.shareId },
        // The detail the owner reads, drawn from the snapshot as dip draws it: the rate as a percent.
        dip: {
          quoteCode: first.dip.quoteCode,
          status: 'active',
          loan: { lenderName: 'Harbour Bridging', netLoanAmount: 350000, ratePercent: 10.2 },
          snapshot: { loan: { interestRate: 0.102 } },
        },
      });
    });

    it('never shows one recipient another recipient’s shares (every id-taking call)', async () => {
      const mine = await sharedTo('mine@example.co.uk');
      const intruder = await h.signedIn({ email: 'intruder@example.co.uk' });
      expect((await intruder.client.get('/api/shared')).json().items).toEqual([]);
      expect((await intruder.client.get('/api/shared/unread-count')).json().count).toBe(0);
      expect((await intruder.client.post(`/api/shared/${mine.shareId}/mark-viewed`)).status).toBe(403);
      expect((await intruder.client.get(`/api/shared/dips/${mine.dip.dipId}`)).status).toBe(403);
      expect((await intruder.client.get(mine.path)).status).toBe(403);
      expect(
        (await intruder.client.post(`/api/online-dip/${mine.dip.dipId}/share`, { inviteType: 'open' }))
          .status,
      ).toBe(403);
      expect((await intruder.client.post('/api/shared/no-such-share/mark-viewed')).status).toBe(404);
      expect((await h.client().get('/api/shared')).status).toBe(401);
      expect((await h.client().get('/api/shared/unread-count')).status).toBe(401);
      const entry = await h.collections.recipientShares.findOne({ _id: mine.shareId });
      expect(entry?.viewedAt).toBeNull();
    });
  });

  describe('links that last as long as the DIP', () => {
    it('gives the open link an expiry of its own only when the owner asks for an earlier one', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const soon = new Date(Date.now() + 3600_000);
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        inviteType: 'open',
        expiresAt: soon.toISOString(),
      });
      expect(res.status).toBe(200);
      expect(res.json().expiresAt).toBe(soon.toISOString());
      const created = (await h.outboxEvents('share.created')).filter((e) => e.data.dipId === dip.dipId);
      expect(created.at(-1)!.data).toMatchObject({ expiresWithDip: false, expiresAt: soon.toISOString() });
      const url = new URL(res.json().url);
      const opener = await h.signedIn();
      const path = `/api/online-dip/shared/${dip.shareSlug}${url.search}`;
      expect((await opener.client.get(path)).status).toBe(200);
      // Past the link's own expiry, though the DIP still runs for a day and more.
      h.clock.now = new Date(soon.getTime() + 1000);
      const late = await opener.client.get(path);
      expect(late.status).toBe(410);
      expect(late.json().error).toBe(SHARING_MESSAGES.expired);
      // An expiry after the DIP's is no expiry of its own: the link follows the DIP.
      h.clock.now = new Date();
      const later = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        inviteType: 'open',
        expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
      });
      expect(later.json().expiresAt).toBe(dip.expiresAt);
      const again = (await h.outboxEvents('share.created')).filter((e) => e.data.dipId === dip.dipId);
      expect(again.at(-1)!.data.expiresWithDip).toBe(true);
    });

    it('keeps a targeted link working when the owner extends the DIP past the first expiry', async () => {
      const { path, owner, dip } = await sharedTo('extended@example.co.uk');
      const recipient = await h.signedIn({ email: 'extended@example.co.uk' });
      await h.deliver(
        dipEvent(DIP_EVENT_TYPES.expiryChanged, {
          dipId: dip.dipId,
          ownerUserId: owner.user.userId,
          version: 2,
          expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          previousExpiresAt: dip.expiresAt,
          changedAt: new Date().toISOString(),
        }),
      );
      // Past the 48 hours the link was first shared for (each test starts the clock again).
      h.clock.now = new Date(Date.now() + 49 * 3600_000);
      const res = await recipient.client.get(path);
      expect(res.status).toBe(200);
      expect(res.json().dip.status).toBe('active');
    });

    it('sends the same link when the same email is shared again, so the first email still works', async () => {
      const first = await sharedTo('twice@example.co.uk');
      const again = await first.owner.client.post(`/api/online-dip/${first.dip.dipId}/share`, {
        recipients: ['twice@example.co.uk'],
        message: 'Once more',
      });
      expect(again.status).toBe(201);
      const created = (await h.outboxEvents('share.created')).filter((e) => e.data.shareId === first.shareId);
      expect(created).toHaveLength(2);
      expect(created[1]!.data.shareUrl).toBe(created[0]!.data.shareUrl);
      const recipient = await h.signedIn({ email: 'twice@example.co.uk' });
      expect((await recipient.client.get(first.path)).status).toBe(200);
    });
  });

  describe('the DIP projection', () => {
    it('applies an event once and never rolls back to an older version', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
      const change = dipEvent(DIP_EVENT_TYPES.expiryChanged, {
        dipId: dip.dipId,
        ownerUserId: owner.user.userId,
        version: 3,
        expiresAt: later,
        previousExpiresAt: dip.expiresAt,
        changedAt: new Date().toISOString(),
      });
      expect(await h.deliver(change)).toBe(true);
      expect(await h.deliver(change)).toBe(false);
      await h.deliver(
        dipEvent(DIP_EVENT_TYPES.expiryChanged, {
          dipId: dip.dipId,
          ownerUserId: owner.user.userId,
          version: 2,
          expiresAt: dip.expiresAt,
          previousExpiresAt: dip.expiresAt,
          changedAt: new Date().toISOString(),
        }),
      );
      const stored = await h.collections.dips.findOne({ _id: dip.dipId });
      expect(stored).toMatchObject({ version: 3, expiresAt: new Date(later) });
    });
  });

  describe('decided on what the dip service holds now, not on events still on their way', () => {
    /** The DIP as dip holds it once the owner has done something sharing has not yet heard of. */
    function ownerMovedOn(dip: DipCreatedEvent, change: Partial<DipState> & { version: number }): DipState {
      const { searchId: _s, loanIndex: _l, validityHours: _v, ...state } = dip;
      return { ...state, status: 'active', ...change };
    }

    it('shares a DIP created a moment ago, before dip.created has arrived', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      // As if dip.created were still on its way: sharing's projection has never heard of the DIP.
      await h.collections.dips.deleteOne({ _id: dip.dipId });
      h.ownerStates.set(dip.dipId, ownerMovedOn(dip, { version: 1 }));
      const res = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' });
      expect(res.status).toBe(200);
      expect(new URL(res.json().url).pathname).toBe(`/shared/${dip.shareSlug}`);
      // Late, dip.created changes nothing.
      expect(await h.deliver(dipEvent(DIP_EVENT_TYPES.created, dip))).toBe(true);
      expect(await h.collections.dips.findOne({ _id: dip.dipId })).toMatchObject({ version: 1 });
    });

    it('after Regenerate, Copy Link gives the new link and the old one is refused at once; the late event undoes neither', async () => {
      const { owner, dip, path } = await sharedTo('reader@example.co.uk');
      const reader = await h.signedIn({ email: 'reader@example.co.uk' });
      expect((await reader.client.get(path)).status).toBe(200);
      const openBefore = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, {
        inviteType: 'open',
      });
      const oldOpenLink = new URL(openBefore.json().url);

      const newSlug = 'regeneratedSlug0123456';
      h.ownerStates.set(
        dip.dipId,
        ownerMovedOn(dip, {
          version: 2,
          shareSlug: newSlug,
          shareUrl: `http://localhost:8080/dip/${newSlug}`,
        }),
      );
      const copied = await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' });
      expect(copied.status).toBe(200);
      const newLink = new URL(copied.json().url);
      expect(newLink.pathname).toBe(`/shared/${newSlug}`);
      const someone = await h.signedIn();
      const openPath = (link: URL) =>
        `/api/online-dip/shared/${link.pathname.split('/').at(-1)}${link.search}`;
      expect((await someone.client.get(openPath(oldOpenLink))).status).toBe(404);
      expect((await reader.client.get(path)).status).toBe(404);
      expect((await someone.client.get(openPath(newLink))).status).toBe(200);

      // dip.link.regenerated arrives afterwards: its version is applied already, so the new link stands.
      const regenerated = dipEvent(DIP_EVENT_TYPES.linkRegenerated, {
        dipId: dip.dipId,
        ownerUserId: owner.user.userId,
        version: 2,
        shareSlug: newSlug,
        shareUrl: `http://localhost:8080/dip/${newSlug}`,
        previousShareSlug: dip.shareSlug,
        regeneratedAt: new Date().toISOString(),
      });
      expect(await h.deliver(regenerated)).toBe(true);
      const another = await h.signedIn();
      expect((await another.client.get(openPath(newLink))).status).toBe(200);
    });

    it('ends the shares by email too when the link was revoked before a regenerate sharing hears of first (events out of order, or caught up)', async () => {
      // By event: dip.link.regenerated (v3) arrives before dip.revoked (v2), which it then makes stale.
      const late = await sharedTo('late@example.co.uk');
      const lateReader = await h.signedIn({ email: 'late@example.co.uk' });
      const revokedAt = new Date().toISOString();
      expect(
        await h.deliver(
          dipEvent(DIP_EVENT_TYPES.linkRegenerated, {
            dipId: late.dip.dipId,
            ownerUserId: late.owner.user.userId,
            version: 3,
            shareSlug: 'after-revoke-slug-0123456',
            shareUrl: 'http://localhost:8080/dip/after-revoke-slug-0123456',
            previousShareSlug: null,
            regeneratedAt: new Date().toISOString(),
            linkRevokedAt: revokedAt,
          }),
        ),
      ).toBe(true);
      expect((await lateReader.client.get('/api/shared')).json().items).toEqual([]);
      const revoked = (await h.outboxEvents('share.revoked')).filter((e) => e.data.dipId === late.dip.dipId);
      expect(revoked.map((e) => e.data.reason)).toEqual(['dip-revoked']);
      // The late dip.revoked changes nothing more.
      await h.deliver(
        dipEvent(DIP_EVENT_TYPES.revoked, {
          dipId: late.dip.dipId,
          ownerUserId: late.owner.user.userId,
          version: 2,
          previousShareSlug: late.dip.shareSlug,
          revokedAt,
        }),
      );
      expect(await h.collections.dips.findOne({ _id: late.dip.dipId })).toMatchObject({ version: 3 });

      // Caught up from the owner's answer: revoked and regenerated since the projection's version.
      const skipped = await sharedTo('skipped@example.co.uk');
      const skippedReader = await h.signedIn({ email: 'skipped@example.co.uk' });
      h.ownerStates.set(
        skipped.dip.dipId,
        ownerMovedOn(skipped.dip, {
          version: 3,
          shareSlug: 'caught-up-slug-0123456789',
          shareUrl: 'http://localhost:8080/dip/caught-up-slug-0123456789',
          linkRevokedAt: new Date().toISOString(),
        }),
      );
      expect(
        (
          await skipped.owner.client.post(`/api/online-dip/${skipped.dip.dipId}/share`, {
            inviteType: 'open',
          })
        ).status,
      ).toBe(200);
      expect((await skippedReader.client.get('/api/shared')).json().items).toEqual([]);
    });

    it('refuses a DIP the dip service no longer knows, and answers 503 when dip cannot be asked', async () => {
      const owner = await h.signedIn();
      const dip = await h.createDip(owner.user);
      h.ownerStates.set(
        dip.dipId,
        ownerMovedOn(dip, { version: 2, status: 'revoked', shareSlug: null, shareUrl: null }),
      );
      expect(
        (await owner.client.post(`/api/online-dip/${dip.dipId}/share`, { inviteType: 'open' })).status,
      ).toBe(404);
      const unreachable = await startSharingHarness(
        { DIP_URL: 'http://127.0.0.1:9' },
        {},
        { askDipOverHttp: true },
      );
      try {
        const someone = await unreachable.signedIn();
        const known = await unreachable.createDip(someone.user);
        const res = await someone.client.post(`/api/online-dip/${known.dipId}/share`, { inviteType: 'open' });
        expect(res.status).toBe(503);
        expect(res.json().error).toMatch(/try again/);
      } finally {
        await unreachable.close();
      }
    });
  });
});
