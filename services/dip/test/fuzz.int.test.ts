import {
  createDipBodySchema,
  dipApplicationBodySchema,
  dipExpiryBodySchema,
  loanApplicationBodySchema,
} from '@lsp/contracts';
import type { CallerIdentity } from '@lsp/service-kit';
import {
  databaseFingerprint,
  describeFuzz,
  fuzzSeed,
  objectBodyOracle,
  settledFingerprint,
  signedInFuzzCallers,
  unsafeStoredKeys,
} from '@lsp/testing';
import { DEVELOPMENT_PAYLOAD } from '../../search/test/search-harness';
import { startDipHarness } from './dip-harness';
import { DIP_APPLICATION, OFFER } from './fixtures';

/**
 * Bad inputs derived from each route's zod schema (see
 * packages/testing/src/fuzz/) are answered 4xx, never 5xx, and store nothing (in the dip database
 * or the search database its events reach). Sent straight to the service as a signed-in, verified
 * user (identity headers with the internal secret), and every fifth one again through the gateway
 * with the session cookie. FUZZ_SEED=<n> replays another draw.
 */
jest.setTimeout(60_000);

interface Context {
  user: CallerIdentity;
  searchId: string;
  dipId: string;
  quoteCode: string;
  inTenDays: string;
}

/** The outbox relays mark entries published (compared by ids alone) and renew their lease (left out). */
const RELAYED = { idsOnly: ['outbox'], ignore: ['outbox_relay_lease'] };

describeFuzz<Context>({
  service: 'dip',
  seed: fuzzSeed(0xd1f00d),
  budget: { refusedBodies: 40, toleratedBodies: 5, segments: 12 },
  routes: [
    [
      'POST /api/online-dip/create/:searchId/:loanIndex',
      'user',
      (ctx) => ({
        method: 'POST',
        path: '/api/online-dip/create/:searchId/:loanIndex',
        params: { searchId: ctx.searchId, loanIndex: '0' },
        body: {
          examples: [{ validHours: 48 }, { validHours: '24' }],
          schema: createDipBodySchema,
          accepts: objectBodyOracle(createDipBodySchema),
        },
      }),
    ],
    [
      'POST /api/online-dip/:dipId/regenerate-link',
      'user',
      (ctx) => ({
        method: 'POST',
        path: '/api/online-dip/:dipId/regenerate-link',
        params: { dipId: ctx.dipId },
      }),
    ],
    [
      'POST /api/online-dip/:dipId/expiry',
      'user',
      (ctx) => ({
        method: 'POST',
        path: '/api/online-dip/:dipId/expiry',
        params: { dipId: ctx.dipId },
        body: {
          examples: [{ expiresAt: ctx.inTenDays }],
          schema: dipExpiryBodySchema,
          accepts: objectBodyOracle(dipExpiryBodySchema),
        },
      }),
    ],
    [
      'POST /api/online-dip/:dipId/revoke',
      'user',
      (ctx) => ({ method: 'POST', path: '/api/online-dip/:dipId/revoke', params: { dipId: ctx.dipId } }),
    ],
    [
      'POST /api/dip-applications',
      'user',
      (ctx) => ({
        method: 'POST',
        path: '/api/dip-applications',
        body: {
          examples: [
            { ...DIP_APPLICATION, userId: ctx.user.userId, searchId: ctx.searchId },
            { ...DIP_APPLICATION, loanData: { lender: 'Ember Lane Credit', rate: 0.1125 } },
          ],
          schema: dipApplicationBodySchema,
          accepts: objectBodyOracle(dipApplicationBodySchema),
        },
      }),
    ],
    [
      'POST /api/applications',
      'user',
      (ctx) => ({
        method: 'POST',
        path: '/api/applications',
        body: {
          examples: [
            {
              propertyAddress: '3 Quay Street, Bristol',
              loanAmount: '400,000',
              term: 12,
              loanType: 'bridging',
            },
            {
              userId: ctx.user.userId,
              searchId: ctx.searchId,
              loanType: 'development',
              companyName: 'Riverside Developments Ltd',
              purchaseInLtd: true,
              propertyAddress: '12 Mill Lane, Leeds',
              purchasePrice: '1,200,000',
              buildCosts: 900000,
              gdv: 3200000,
              loanAmount: 1934999,
              term: '18',
              brokerFee: 0,
              selectedLoan: { LenderName: OFFER.LenderName, NetLoan: OFFER.NetLoan },
              searchData: { ...DEVELOPMENT_PAYLOAD },
            },
          ],
          schema: loanApplicationBodySchema,
          accepts: objectBodyOracle(loanApplicationBodySchema),
        },
      }),
    ],
    // Reads, for their path parameters.
    [
      'GET /api/online-dip/user/:userId',
      'user',
      (ctx) => ({ method: 'GET', path: '/api/online-dip/user/:userId', params: { userId: ctx.user.userId } }),
    ],
    [
      'GET /api/online-dip/:reference',
      'user',
      (ctx) => ({ method: 'GET', path: '/api/online-dip/:reference', params: { reference: ctx.dipId } }),
    ],
    [
      'GET /api/online-dip/pdf/:reference',
      'user',
      (ctx) => ({
        method: 'GET',
        path: '/api/online-dip/pdf/:reference',
        params: { reference: ctx.quoteCode },
      }),
    ],
    [
      'GET /api/applications/:userId',
      'user',
      (ctx) => ({ method: 'GET', path: '/api/applications/:userId', params: { userId: ctx.user.userId } }),
    ],
  ],

  async setup() {
    const h = await startDipHarness({
      pdfs: { get: async (dip) => Buffer.from(`%PDF-1.7 test ${dip.quoteCode}`) },
    });
    const { user, client } = await h.signedIn({ name: 'Fuzz Tester' });
    const searchId = await h.savedSearch(client, user.userId);
    const created = await client.post(`/api/online-dip/create/${searchId}/0`, { validHours: 48 });
    expect(created.status).toBe(201);
    // Both databases: a DIP's or an application's events change the search service's too.
    const read = async () => ({
      ...prefixed('dip', await databaseFingerprint(h.dipDb, RELAYED)),
      ...prefixed('search', await databaseFingerprint(h.searchDb, RELAYED)),
    });
    return {
      ctx: {
        user,
        searchId,
        dipId: created.json().dipId,
        quoteCode: created.json().quoteCode,
        inTenDays: new Date(h.clock.now().getTime() + 10 * 24 * 3600_000).toISOString(),
      },
      serviceUrl: h.gateway.config.DIP_URL,
      ...signedInFuzzCallers(user, client, h.gateway),
      fingerprint: () => settledFingerprint(read, 10_000, 150),
      unsafeKeys: async () => [...(await unsafeStoredKeys(h.dipDb)), ...(await unsafeStoredKeys(h.searchDb))],
      close: () => h.close(),
    };
  },
});

function prefixed(prefix: string, fingerprint: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fingerprint).map(([name, value]) => [`${prefix}.${name}`, value]));
}
