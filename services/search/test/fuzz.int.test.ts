import {
  leadBodySchema,
  leadFormSchema,
  projectNameBodySchema,
  saveSearchBodySchema,
  searchPayloadSchemas,
} from '@lsp/contracts';
import type { CallerIdentity } from '@lsp/service-kit';
import {
  type BodyOracle,
  type FuzzRoute,
  databaseFingerprint,
  describeFuzz,
  fuzzSeed,
  objectBodyOracle,
  sendCase,
  signedInFuzzCallers,
  unsafeStoredKeys,
} from '@lsp/testing';
import {
  BRIDGING_PAYLOAD,
  COMMERCIAL_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  LEAD,
  runAndSaveSearch,
  startSearchHarness,
} from './search-harness';

/**
 * Bad inputs derived from each route's zod schema (see
 * packages/testing/src/fuzz/) are answered 4xx, never 5xx, and store nothing. Sent straight to the
 * service as a signed-in, verified user (identity headers with the internal secret), and every fifth
 * one again through the gateway with the session cookie. FUZZ_SEED=<n> replays another draw.
 */
jest.setTimeout(60_000);

interface Context {
  user: CallerIdentity;
  runId: string;
  searchId: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A search run reads the payload with its loan type's schema, and the lead (when sent) with the lead form's. */
function searchRunOracle(loanType: keyof typeof searchPayloadSchemas): BodyOracle {
  const payload = objectBodyOracle(searchPayloadSchemas[loanType]);
  return (value) =>
    payload(value) &&
    (!isObject(value) ||
      value.lead === undefined ||
      value.lead === null ||
      leadFormSchema.safeParse(value.lead).success);
}

/** A lead is its own schema, and its search payload that of the loan type it names. */
const leadOracle: BodyOracle = (value) => {
  if (!objectBodyOracle(leadBodySchema)(value) || !isObject(value)) return false;
  const schema = searchPayloadSchemas[value.searchType as keyof typeof searchPayloadSchemas];
  return schema.safeParse(value.searchPayload).success;
};

const PAYLOADS = {
  development: DEVELOPMENT_PAYLOAD,
  bridging: BRIDGING_PAYLOAD,
  commercial: COMMERCIAL_PAYLOAD,
} as const;

const searchRun =
  (loanType: keyof typeof PAYLOADS) =>
  (ctx: Context): FuzzRoute => ({
    method: 'POST',
    path: `/api/${loanType}`,
    body: {
      examples: [
        { ...PAYLOADS[loanType], userId: ctx.user.userId },
        { ...PAYLOADS[loanType], lead: LEAD },
      ],
      schema: searchPayloadSchemas[loanType],
      accepts: searchRunOracle(loanType),
    },
  });

let gatewayUrl = '';
let gatewayHeaders: Record<string, string> = {};

describeFuzz<Context>({
  service: 'search',
  seed: fuzzSeed(0x5ea4c8),
  budget: { refusedBodies: 40, toleratedBodies: 6, segments: 12 },
  routes: [
    ['POST /api/development', 'user', searchRun('development')],
    ['POST /api/bridging', 'user', searchRun('bridging')],
    ['POST /api/commercial', 'user', searchRun('commercial')],
    [
      'POST /api/leads',
      'user',
      () => ({
        method: 'POST',
        path: '/api/leads',
        body: {
          examples: [
            { ...LEAD, searchType: 'bridging', searchPayload: BRIDGING_PAYLOAD },
            { ...LEAD, searchType: 'commercial', searchPayload: COMMERCIAL_PAYLOAD },
          ],
          schema: leadBodySchema,
          accepts: leadOracle,
        },
      }),
    ],
    [
      'POST /api/search',
      'user',
      (ctx) => ({
        method: 'POST',
        path: '/api/search',
        body: {
          examples: [
            {
              userId: ctx.user.userId,
              loanType: 'development',
              searchData: { ...DEVELOPMENT_PAYLOAD, propertyAddress: '12 Mill Lane, Leeds' },
              apiResponse: { success: true, data: { SearchRunId: ctx.runId, Results: [] } },
            },
          ],
          schema: saveSearchBodySchema,
          accepts: objectBodyOracle(saveSearchBodySchema),
        },
      }),
    ],
    [
      'PUT /api/search/project-name',
      'user',
      (ctx) => ({
        method: 'PUT',
        path: '/api/search/project-name',
        body: {
          examples: [{ searchId: ctx.searchId, loanType: 'development', projectName: 'Renamed project' }],
          schema: projectNameBodySchema,
          accepts: objectBodyOracle(projectNameBodySchema),
        },
      }),
    ],
    // Reads, for their path parameters.
    [
      'GET /api/user-searches/:userId',
      'user',
      (ctx) => ({ method: 'GET', path: '/api/user-searches/:userId', params: { userId: ctx.user.userId } }),
    ],
    [
      'GET /api/search-result/:id',
      'user',
      (ctx) => ({ method: 'GET', path: '/api/search-result/:id', params: { id: ctx.searchId } }),
    ],
  ],

  async setup() {
    const h = await startSearchHarness();
    const signedIn = await h.signedIn({ name: 'Fuzz Tester', email: 'fuzz@example.co.uk' });
    const { user, client } = signedIn;
    const { run, id: searchId } = await runAndSaveSearch(client, user.userId);
    const reach = signedInFuzzCallers(user, client, h.gateway);
    gatewayUrl = h.gateway.url;
    gatewayHeaders = reach.gateway.callers.user;
    return {
      ctx: { user, runId: run.data.SearchRunId, searchId },
      serviceUrl: h.gateway.config.SEARCH_URL,
      ...reach,
      fingerprint: () => databaseFingerprint(h.mongo),
      unsafeKeys: () => unsafeStoredKeys(h.mongo),
      close: () => h.close(),
    };
  },

  more() {
    // Found by this fuzzing and fixed in the gateway (it now forwards bytes): it parsed a JSON body and
    // @fastify/reply-from JSON.stringify-ed it again to forward it, which overflowed the stack from about
    // 5,000 levels of nesting: the gateway answered 500 (the service itself answers 400).
    it('the gateway refuses a JSON body nested 10,000 deep with a 4xx (it once answered 500)', async () => {
      const answer = await sendCase(
        gatewayUrl,
        {
          route: 'POST /api/development',
          label: 'arrays nested 10,000 deep',
          method: 'POST',
          path: '/api/development',
          contentType: 'application/json',
          body: '['.repeat(10_000) + ']'.repeat(10_000),
          mustRefuse: true,
          refused: (status) => status >= 400 && status < 500,
        },
        gatewayHeaders,
      );
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    });
  },
});
