import {
  SESSION_COOKIE,
  changePasswordBodySchema,
  createAccountBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  registerBodySchema,
  resendVerificationBodySchema,
  resetPasswordBodySchema,
  saveLeadInfoBodySchema,
} from '@lsp/contracts';
import { identityHeaders } from '@lsp/service-kit';
import { TEST_SECRETS } from '@lsp/testing';
import {
  type FuzzRoute,
  type FuzzSchema,
  databaseFingerprint,
  describeFuzz,
  fuzzSeed,
  objectBodyOracle,
  unsafeStoredKeys,
} from '@lsp/testing';
import { LEAD_INFO, latestVerificationToken, startIdentityStack } from './harness';

/**
 * Bad inputs derived from each route's zod schema (see
 * packages/testing/src/fuzz/) are answered 4xx, never 5xx, and store nothing. Every route is called
 * anonymously and as a signed-in, verified user: straight to the service (identity headers with the
 * internal secret), and every fifth case again through the gateway (with the session cookie when
 * signed in). FUZZ_SEED=<n> replays another draw.
 */
jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a new horse battery';

interface Context {
  userId: string;
  email: string;
}

type RouteMaker = (ctx: Context) => FuzzRoute;

const post = (path: string, schema: FuzzSchema | null, examples: (ctx: Context) => unknown[]): RouteMaker =>
  schema
    ? (ctx) => ({
        method: 'POST',
        path,
        body: { examples: examples(ctx), schema, accepts: objectBodyOracle(schema) },
      })
    : () => ({ method: 'POST', path });

/** A signed-in route called anonymously: whatever the body, the answer is a 401. */
const anonymously =
  (make: RouteMaker): RouteMaker =>
  (ctx) => {
    const route = make(ctx);
    return { ...route, body: route.body ? { ...route.body, accepts: () => false } : undefined };
  };

const PUBLIC: Array<[string, RouteMaker]> = [
  [
    'POST /api/login',
    post('/api/login', loginBodySchema, (ctx) => [{ email: ctx.email, password: PASSWORD }]),
  ],
  [
    'POST /api/auth/register',
    post('/api/auth/register', registerBodySchema, () => [
      { name: 'Ada Lovelace', email: 'ada.fuzz@example.com', password: PASSWORD },
      {
        name: 'Ada Lovelace',
        email: 'ada.fuzz2@example.com',
        password: PASSWORD,
        refDealId: 'deal-7',
        fromSharedLink: true,
      },
    ]),
  ],
  [
    'POST /api/create-account',
    post('/api/create-account', createAccountBodySchema, () => [
      {
        name: 'Grace Hopper',
        email: 'grace.fuzz@example.com',
        phone: '07700 900456',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        searchData: { loanType: 'development', projectName: 'Riverside Mews', gdv: 3200000 },
      },
    ]),
  ],
  [
    'POST /api/auth/forgot-password',
    post('/api/auth/forgot-password', forgotPasswordBodySchema, (ctx) => [{ email: ctx.email }]),
  ],
  [
    'POST /api/auth/reset-password',
    post('/api/auth/reset-password', resetPasswordBodySchema, () => [
      { token: 'A'.repeat(43), password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    ]),
  ],
  [
    'POST /api/auth/resend-verification',
    post('/api/auth/resend-verification', resendVerificationBodySchema, (ctx) => [{ email: ctx.email }]),
  ],
  ['POST /api/logout', post('/api/logout', null, () => [])],
  ['GET /api/verify-email', () => ({ method: 'GET', path: '/api/verify-email', queryParam: 'token' })],
];

const SIGNED_IN: Array<[string, RouteMaker]> = [
  [
    'POST /api/auth/change-password',
    post('/api/auth/change-password', changePasswordBodySchema, () => [
      { currentPassword: PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
    ]),
  ],
  [
    'POST /api/save-lead-info',
    post('/api/save-lead-info', saveLeadInfoBodySchema, (ctx) => [
      {
        userId: ctx.userId,
        leadInfo: { ...LEAD_INFO, consent: true },
        searchData: { loanType: 'development' },
      },
    ]),
  ],
  ['POST /api/auth/logout-all', post('/api/auth/logout-all', null, () => [])],
];

describeFuzz<Context>({
  service: 'identity',
  seed: fuzzSeed(0x1d3a7e),
  budget: { refusedBodies: 26, toleratedBodies: 4, segments: 0 },
  routes: [
    ...PUBLIC.map(([name, make]): [string, string, RouteMaker] => [name, 'anonymous', make]),
    ...SIGNED_IN.map(([name, make]): [string, string, RouteMaker] => [name, 'anonymous', anonymously(make)]),
    ...PUBLIC.map(([name, make]): [string, string, RouteMaker] => [name, 'user', make]),
    ...SIGNED_IN.map(([name, make]): [string, string, RouteMaker] => [name, 'user', make]),
  ],

  async setup() {
    const stack = await startIdentityStack();
    const email = 'fuzz.tester@example.com';
    const browser = stack.browser();
    const registered = await browser.post('/api/auth/register', {
      name: 'Fuzz Tester',
      email,
      password: PASSWORD,
    });
    expect(registered.status).toBe(201);
    const token = await latestVerificationToken(stack, email);
    expect((await browser.get(`/api/verify-email?token=${token}`)).status).toBe(200);
    expect((await browser.post('/api/login', { email, password: PASSWORD })).status).toBe(200);
    const me = (await browser.get('/api/auth/me')).json().user;
    expect(me.verified).toBe(true);
    const sameSite = { origin: stack.gateway.config.PUBLIC_URL, 'sec-fetch-site': 'same-origin' };
    return {
      ctx: { userId: me.id, email },
      serviceUrl: stack.identityUrl,
      callers: {
        anonymous: identityHeaders(null, TEST_SECRETS.INTERNAL_SECRET),
        user: identityHeaders(
          { userId: me.id, email, name: me.name, verified: true },
          TEST_SECRETS.INTERNAL_SECRET,
        ),
      },
      gateway: {
        url: stack.gateway.url,
        callers: {
          anonymous: sameSite,
          user: { ...sameSite, cookie: `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}` },
        },
      },
      fingerprint: () => databaseFingerprint(stack.db),
      unsafeKeys: () => unsafeStoredKeys(stack.db),
      close: () => stack.close(),
    };
  },
});
