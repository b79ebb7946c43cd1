import { randomUUID } from 'node:crypto';
import {
  DIP_DEFAULT_VALID_HOURS,
  DIP_EXPIRY_SHORTCUT_DAYS,
  DIP_MAX_EXPIRY_DAYS,
  DIP_MESSAGES,
} from '@lsp/contracts';
import {
  type CallerIdentity,
  badRequest,
  conflict,
  forbidden,
  gone,
  isDuplicateKey,
  notFound,
  declareRoute,
  type Clock,
} from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { DipRepository } from '../data/dips';
import {
  type AccessProjection,
  type SavedSearchProjection,
  type SavedSearchSource,
  type SharedAccessSource,
  savedSearchFor,
} from '../data/projections';
import { isDipId, isShareSlug, newQuoteCode, newShareSlug } from '../domain/codes';
import { buildSnapshot } from '../domain/snapshot';
import { type Dip, isExpired, listItem, onlineView, ownerView, shareUrlOf } from '../domain/views';
import {
  dipCreatedEvent,
  dipExpiryChangedEvent,
  dipLinkRegeneratedEvent,
  dipRevokedEvent,
} from '../events/published';

export interface DipRouteDeps {
  dips: DipRepository;
  savedSearches: SavedSearchProjection;
  /** The search service, for a search saved so recently that search.saved has not arrived. */
  askSearch: SavedSearchSource;
  /** The sharing service: the shares through which someone may open a DIP now (none if it cannot be asked). */
  askSharing: SharedAccessSource;
  access: AccessProjection;
  clock: Clock;
  publicUrl: string;
}

/** Tries before a DIP creation gives up on finding an unused quote code (each try has ~1e-9 odds of a clash). */
const CREATE_ATTEMPTS = 5;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The DIP a caller may read: it exists (404), has not expired (410), and is the caller's own or
 * shared with them through a link that still holds (403). `needs` names the permission asked for.
 */
export async function readableDip(
  deps: Pick<DipRouteDeps, 'access' | 'clock' | 'askSharing'>,
  dip: Dip | null,
  caller: CallerIdentity,
  needs: 'view' | 'downloadPdf',
): Promise<{ dip: Dip; asOwner: boolean }> {
  if (!dip) throw notFound(DIP_MESSAGES.notFound);
  const now = deps.clock.now();
  if (isExpired(dip, now)) throw gone(DIP_MESSAGES.expired);
  if (dip.userId === caller.userId) return { dip, asOwner: true };
  const grants = await deps.access.grantsFor(dip, caller, now);
  if (grants.some((g) => g.permissions[needs])) return { dip, asOwner: false };
  // No grant here yet may mean the share (or this person's opening of the open link) happened a moment
  // ago and its event is on its way: sharing, which owns shares, is asked before refusing.
  if (
    dip.shareSlug &&
    (await deps.askSharing(dip.id, dip.shareSlug, caller, dip.linkRevokedAt)).some(
      (g) => g.permissions[needs],
    )
  )
    return { dip, asOwner: false };
  throw forbidden(DIP_MESSAGES.accessDenied);
}

/** The caller's own DIP, still valid, for an owner's action. */
async function ownedLiveDip(deps: DipRouteDeps, dipId: string, caller: CallerIdentity): Promise<Dip> {
  const dip = isDipId(dipId) ? await deps.dips.findById(dipId) : null;
  if (!dip) throw notFound(DIP_MESSAGES.notFound);
  if (dip.userId !== caller.userId) throw forbidden(DIP_MESSAGES.accessDenied);
  if (isExpired(dip, deps.clock.now())) throw gone(DIP_MESSAGES.expired);
  return dip;
}

const changedConcurrently = () => conflict('The DIP changed at the same time; please try again.');

export function registerDipRoutes(app: FastifyInstance, deps: DipRouteDeps) {
  const { dips, clock, publicUrl } = deps;

  declareRoute(
    app,
    'createDip',
    async (request, reply) => {
      const { caller } = request;
      const { searchId, loanIndex } = request.params;
      const { validHours } = request.body;
      const search = await savedSearchFor(deps.savedSearches, deps.askSearch, searchId);
      if (!search) throw notFound(DIP_MESSAGES.searchNotFound);
      if (search.userId !== caller.userId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
      const offer = search.offers[loanIndex];
      if (!offer) throw notFound(DIP_MESSAGES.offerNotFound);
      const validityHours = validHours ?? DIP_DEFAULT_VALID_HOURS;
      const firstDip = (await dips.countForUser(caller.userId)) === 0;
      const snapshot = buildSnapshot(search.loanType, offer, search.searchData, caller, firstDip);
      for (let attempt = 1; ; attempt++) {
        const now = clock.now();
        const shareSlug = newShareSlug();
        const dip: Dip = {
          id: randomUUID(),
          userId: caller.userId,
          searchId,
          loanIndex,
          quoteCode: newQuoteCode(),
          shareSlug,
          linkStatus: 'active',
          validityHours,
          snapshot,
          expiresAt: new Date(now.getTime() + validityHours * HOUR_MS),
          createdAt: now,
          version: 1,
          firstSharedAt: null,
          linkRevokedAt: null,
          productChange: null,
          pricedUnder: search.panelVersion ?? null,
          productCheckedAt: null,
        };
        try {
          await dips.insert(dip, (d) => [
            dipCreatedEvent(
              d.id,
              {
                dipId: d.id,
                ownerUserId: d.userId,
                version: d.version,
                ownerName: caller.name,
                ownerEmail: caller.email,
                searchId,
                loanIndex,
                quoteCode: d.quoteCode,
                shareSlug,
                shareUrl: shareUrlOf(publicUrl, shareSlug),
                validityHours,
                expiresAt: d.expiresAt.toISOString(),
                createdAt: d.createdAt.toISOString(),
                snapshot,
              },
              request.id,
            ),
          ]);
        } catch (err) {
          // Another DIP took this quote code (or slug) a moment ago: draw new ones.
          if (isDuplicateKey(err) && attempt < CREATE_ATTEMPTS) continue;
          throw err;
        }
        request.log.info({ dipId: dip.id, quoteCode: dip.quoteCode }, 'DIP created');
        reply.status(201);
        return {
          ok: true,
          dipId: dip.id,
          quoteCode: dip.quoteCode,
          shareUrl: shareUrlOf(publicUrl, shareSlug),
          expiresAt: dip.expiresAt.toISOString(),
          validityHours,
        };
      }
    },
    { signInMessage: DIP_MESSAGES.authRequired },
  );

  declareRoute(app, 'listUserDips', async (request) => {
    const { caller } = request;
    if (request.params.userId !== caller.userId) throw forbidden(DIP_MESSAGES.searchAccessDenied);
    const now = clock.now();
    const list = await dips.listForUser(caller.userId);
    return { success: true, dips: list.map((d) => listItem(d, now, publicUrl)) };
  });

  // One path, two readers: a DIP id is the owner's view, a share slug the online DIP page.
  declareRoute(app, 'getDip', async (request, reply) => {
    const { caller } = request;
    const { reference } = request.params;
    if (isDipId(reference)) {
      const dip = await dips.findById(reference);
      if (!dip) throw notFound(DIP_MESSAGES.notFound);
      if (dip.userId !== caller.userId) throw forbidden(DIP_MESSAGES.accessDenied);
      // Its owner still opens an expired DIP (status 'expired': the Expired badge, Download PDF
      // disabled); everyone else meets 410.
      return { success: true, dip: ownerView(dip, clock.now(), publicUrl), shareInfo: { shareId: null } };
    }
    if (!isShareSlug(reference)) throw notFound(DIP_MESSAGES.notFound);
    const { dip, asOwner } = await readableDip(deps, await dips.findBySlug(reference), caller, 'view');
    // The spec caches the online view for 60 s; private, because it is one person's loan terms.
    reply.header('cache-control', 'private, max-age=60');
    return { success: true, ...onlineView(dip, clock.now(), asOwner) };
  });

  declareRoute(app, 'regenerateDipLink', async (request) => {
    const { caller } = request;
    const dip = await ownedLiveDip(deps, request.params.dipId, caller);
    const shareSlug = newShareSlug();
    const changed = await dips.change(dip, { shareSlug, linkStatus: 'active' }, (d) =>
      dipLinkRegeneratedEvent(
        d.id,
        {
          dipId: d.id,
          ownerUserId: d.userId,
          version: d.version,
          shareSlug,
          shareUrl: shareUrlOf(publicUrl, shareSlug),
          previousShareSlug: dip.shareSlug,
          regeneratedAt: clock.now().toISOString(),
          linkRevokedAt: dip.linkRevokedAt?.toISOString() ?? null,
        },
        request.id,
      ),
    );
    if (!changed) throw changedConcurrently();
    return {
      ok: true,
      success: true,
      shareSlug,
      shareUrl: shareUrlOf(publicUrl, shareSlug),
      url: shareUrlOf(publicUrl, shareSlug),
    };
  });

  declareRoute(app, 'setDipExpiry', async (request) => {
    const { caller, body } = request;
    const dip = await ownedLiveDip(deps, request.params.dipId, caller);
    const now = clock.now();
    const expiresAt = body.expiresAt
      ? new Date(body.expiresAt)
      : new Date(now.getTime() + DIP_EXPIRY_SHORTCUT_DAYS * DAY_MS);
    if (expiresAt.getTime() <= now.getTime()) throw badRequest('The new expiry must be in the future');
    if (expiresAt.getTime() > now.getTime() + DIP_MAX_EXPIRY_DAYS * DAY_MS)
      throw badRequest(`The expiry can be at most ${DIP_MAX_EXPIRY_DAYS} days from now`);
    const changed = await dips.change(dip, { expiresAt }, (d) =>
      dipExpiryChangedEvent(
        d.id,
        {
          dipId: d.id,
          ownerUserId: d.userId,
          version: d.version,
          expiresAt: expiresAt.toISOString(),
          previousExpiresAt: dip.expiresAt.toISOString(),
          changedAt: now.toISOString(),
        },
        request.id,
      ),
    );
    if (!changed) throw changedConcurrently();
    return { ok: true, success: true, expiresAt: expiresAt.toISOString() };
  });

  declareRoute(app, 'revokeDip', async (request) => {
    const { caller } = request;
    const dip = await ownedLiveDip(deps, request.params.dipId, caller);
    if (dip.linkStatus === 'revoked') return { ok: true, success: true };
    const revokedAt = clock.now();
    const changed = await dips.change(
      dip,
      { shareSlug: null, linkStatus: 'revoked', linkRevokedAt: revokedAt },
      (d) =>
        dipRevokedEvent(
          d.id,
          {
            dipId: d.id,
            ownerUserId: d.userId,
            version: d.version,
            previousShareSlug: dip.shareSlug,
            revokedAt: revokedAt.toISOString(),
          },
          request.id,
        ),
    );
    if (!changed) throw changedConcurrently();
    // Shares by email outlive a regenerated slug, so a withdrawn link ends them here at once rather
    // than when sharing's share.revoked events arrive (a regenerate straight after must not revive them).
    await deps.access.dipRevoked(dip.id, revokedAt);
    return { ok: true, success: true };
  });
}
