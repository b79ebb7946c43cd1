import { EMAIL_NOT_VERIFIED, OPS_MESSAGES, PUBLIC_API_ROUTES, pathParamNames } from '@lsp/contracts';
import Fastify from 'fastify';
import { z } from 'zod';
import { ServiceMetrics, createLogger, createServiceApp, identityHeaders } from '../src';
import { type PathParams, contractOf, declareRoute } from '../src/declared-route';

const SECRET = 'a-test-internal-secret-0123456789';
const borrower = { userId: 'u-1', email: 'a@b.co', name: 'A', verified: true };
const signedIn = identityHeaders(borrower, SECRET);
const asOps = identityHeaders({ ...borrower, roles: ['ops'] }, SECRET);

function serviceApp() {
  return createServiceApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    metrics: new ServiceMetrics('test'),
    internalSecret: SECRET,
  });
}

const renamed = {
  success: true as const,
  message: 'Renamed',
  search: { id: 's-1', loan_type: 'bridging' as const, project_name: 'P' },
};

describe('declareRoute', () => {
  it("registers the handler at the declaration's method and path", async () => {
    const app = serviceApp();
    declareRoute(app, 'countUnreadShares', async () => ({ success: true, count: 2 }));
    declareRoute(app, 'markShareViewed', async (request) => ({
      success: true,
      shareId: request.params.shareId,
      isViewed: true,
    }));
    const count = await app.inject({ method: 'GET', url: '/api/shared/unread-count', headers: signedIn });
    expect(count.json()).toEqual({ success: true, count: 2 });
    const viewed = await app.inject({
      method: 'POST',
      url: '/api/shared/s-1/mark-viewed',
      headers: signedIn,
    });
    expect(viewed.json()).toEqual({ success: true, shareId: 's-1', isViewed: true });
    // Only the declared method answers.
    expect(
      (await app.inject({ method: 'GET', url: '/api/shared/s-1/mark-viewed', headers: signedIn })).statusCode,
    ).toBe(404);
    await app.close();
  });

  it('refuses an anonymous caller of a signed-in route with a 401 before looking at the body', async () => {
    const app = serviceApp();
    const seen: unknown[] = [];
    declareRoute(
      app,
      'renameSearch',
      async (request) => {
        seen.push(request.body);
        return renamed;
      },
      { signInMessage: 'Please sign in to rename' },
    );
    const anonymous = await app.inject({
      method: 'PUT',
      url: '/api/search/project-name',
      payload: { projectName: 7 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ success: false, error: 'Please sign in to rename' });
    // Identity headers without the internal secret are no one's.
    const forged = await app.inject({
      method: 'PUT',
      url: '/api/search/project-name',
      headers: { ...signedIn, 'x-internal-secret': 'not-the-secret-0123456789' },
      payload: { searchId: 's-1', loanType: 'bridging', projectName: 'P' },
    });
    expect(forged.statusCode).toBe(401);
    expect(seen).toEqual([]);
    await app.close();
  });

  it("validates the body with the declared schema: the first problem is the error, each field's in `fields`", async () => {
    const app = serviceApp();
    const seen: unknown[] = [];
    declareRoute(app, 'renameSearch', async (request) => {
      seen.push(request.body);
      return renamed;
    });
    const put = (payload?: unknown) =>
      app.inject({
        method: 'PUT',
        url: '/api/search/project-name',
        headers: { ...signedIn, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });

    const blank = await put({ searchId: 's-1', loanType: 'bridging', projectName: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({
      success: false,
      error: 'Project name cannot be empty',
      fields: { projectName: 'Project name cannot be empty' },
    });

    // No body at all is validated as {}, so every required field says what it needs.
    const none = await put();
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      error: 'Search id is required',
      fields: { searchId: 'Search id is required', projectName: 'Project name cannot be empty' },
    });

    for (const notAnObject of [[1, 2], 'text', 42]) {
      const refused = await put(notAnObject);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ success: false, error: 'The request body must be a JSON object' });
    }
    expect(seen).toEqual([]);

    // What the handler reads is the schema's output (trimmed here).
    const ok = await put({ searchId: ' s-1 ', loanType: 'bridging', projectName: '  Mill Lane  ' });
    expect(ok.statusCode).toBe(200);
    expect(seen).toEqual([{ searchId: 's-1', loanType: 'bridging', projectName: 'Mill Lane' }]);
    await app.close();
  });

  it('answers ops routes to the ops role only (403 in the ops console words)', async () => {
    const app = serviceApp();
    const stats = { instance: 'n-1', viewers: [], totalDropped: 0, rate: { bucketSeconds: 10, buckets: [] } };
    declareRoute(app, 'getOpsFeedStats', async () => stats);
    const ask = (headers: Record<string, string>) => app.inject({ url: '/api/ops/feed/stats', headers });
    expect((await ask({})).statusCode).toBe(401);
    const borrowerAsks = await ask(signedIn);
    expect(borrowerAsks.statusCode).toBe(403);
    expect(borrowerAsks.json().error).toBe(OPS_MESSAGES.forbidden);
    expect((await ask(asOps)).json()).toEqual(stats);
    await app.close();
  });

  it('serialises answers through the declared schema: undeclared fields never leave, a wrong answer is a masked 500', async () => {
    const app = serviceApp();
    let answer: unknown = { success: true, count: 2, internalNote: 'not for the browser' };
    declareRoute(app, 'countUnreadShares', async () => answer as never);
    const first = await app.inject({ url: '/api/shared/unread-count', headers: signedIn });
    expect(first.json()).toEqual({ success: true, count: 2 });

    answer = { success: true, count: 'two' };
    const wrong = await app.inject({ url: '/api/shared/unread-count', headers: signedIn });
    expect(wrong.statusCode).toBe(500);
    expect(wrong.json()).toMatchObject({
      success: false,
      error: 'Something went wrong on our side. Please try again.',
    });
    expect(wrong.body).not.toContain('two');
    await app.close();
  });

  it('refuses a caller whose email is not verified on a verifiedEmail route (403, offering the resend), before the body', async () => {
    const app = serviceApp();
    const seen: unknown[] = [];
    declareRoute(app, 'refer', async (request) => {
      seen.push(request.body);
      return { success: true, message: 'sent' } as never;
    });
    declareRoute(app, 'saveLeadInfo', async () => ({ success: true }) as never);
    const unverified = identityHeaders({ ...borrower, verified: false }, SECRET);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/referrals',
      headers: unverified,
      payload: { referralEmail: 'not an email' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, error: EMAIL_NOT_VERIFIED, verificationRequired: true });
    expect(seen).toEqual([]);
    // Anonymous is still a 401 first; a route without the flag admits the unverified caller.
    expect((await app.inject({ method: 'POST', url: '/api/referrals', payload: {} })).statusCode).toBe(401);
    const lead = await app.inject({
      method: 'POST',
      url: '/api/save-lead-info',
      headers: unverified,
      payload: {},
    });
    expect(lead.statusCode).not.toBe(403);
    await app.close();
  });

  it('refuses the unverified caller on every verifiedEmail route before its handler runs, and admits the verified one', async () => {
    const unverified = identityHeaders({ ...borrower, verified: false }, SECRET);
    const routes = PUBLIC_API_ROUTES.filter((route) => route.verifiedEmail);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const app = serviceApp();
      let handled = 0;
      declareRoute(
        app,
        route.operationId as never,
        (async (_request: unknown, reply: { code(n: number): { send(): unknown } }) => {
          handled += 1;
          return reply.code(204).send();
        }) as never,
      );
      const url = route.path.replace(/:([A-Za-z0-9_]+)/g, 'p-1');
      const ask = (headers: Record<string, string>) =>
        app.inject({
          method: route.method,
          url,
          headers,
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
      const refused = await ask(unverified);
      expect([route.operationId, refused.statusCode, refused.json()]).toEqual([
        route.operationId,
        403,
        { success: false, error: EMAIL_NOT_VERIFIED, verificationRequired: true },
      ]);
      expect(handled).toBe(0);
      // The verified caller gets past admission (to validation, or to the handler).
      expect([route.operationId, (await ask(signedIn)).statusCode]).not.toEqual([route.operationId, 403]);
      await app.close();
    }
  });

  it('needs a verified email on every owner- or recipient-scoped route (DIPs, applications, shares, deals, referrals, API keys, webhooks)', () => {
    const verified = PUBLIC_API_ROUTES.filter((route) => route.verifiedEmail)
      .map((route) => route.operationId)
      .sort();
    expect(verified).toEqual(
      [
        'createDip',
        'listUserDips',
        'getDip',
        'regenerateDipLink',
        'setDipExpiry',
        'revokeDip',
        'downloadDipPdf',
        'submitDipApplication',
        'submitLoanApplication',
        'listUserApplications',
        'shareDip',
        'listDipShares',
        'revokeShare',
        'listSharedWithMe',
        'countUnreadShares',
        'markShareViewed',
        'getSharedDip',
        'shareDeal',
        'refer',
        'createApiKey',
        'listApiKeys',
        'revokeApiKey',
        'createWebhook',
        'listWebhooks',
        'deleteWebhook',
        'testWebhook',
        'listWebhookDeliveries',
      ].sort(),
    );
    // Only signed-in routes can ask for it (a targeted link's recipient is checked by sharing itself).
    expect(PUBLIC_API_ROUTES.filter((r) => r.verifiedEmail && r.auth !== 'session')).toEqual([]);
  });

  it('declares the refusals it answers before the handler: 401 on signed-in routes, 403 on ops and verifiedEmail routes', () => {
    const undeclared = PUBLIC_API_ROUTES.flatMap((route) => {
      const refusals =
        route.auth === 'session'
          ? route.verifiedEmail
            ? [401, 403]
            : [401]
          : route.auth === 'ops'
            ? [401, 403]
            : [];
      // Path parameters declared as plain text (every fastify path segment is some text) refuse nothing.
      const anyText = Object.fromEntries(pathParamNames(route.path).map((name) => [name, '?']));
      const paramsCanRefuse = route.params !== undefined && !route.params.safeParse(anyText).success;
      const withInput = paramsCanRefuse || route.query || route.body ? [400] : [];
      return [...refusals, ...withInput]
        .filter((status) => !route.responses[status])
        .map((status) => `${route.operationId} ${status}`);
    });
    expect(undeclared).toEqual([]);
  });

  it('serialises with zod parse, which equals encode because no declared answer holds a transform or codec', () => {
    const transforms = (schema: z.ZodType) => {
      try {
        z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' });
        return false;
      } catch {
        return true;
      }
    };
    // The probe does see a transform...
    expect(transforms(z.object({ total: z.string().transform(Number) }))).toBe(true);
    // ...and no declared answer has one.
    const withTransforms = PUBLIC_API_ROUTES.flatMap((route) =>
      Object.entries(route.responses)
        .filter(([, answer]) => answer.schema && transforms(answer.schema))
        .map(([status]) => `${route.operationId} ${status}`),
    );
    expect(withTransforms).toEqual([]);
  });

  it('leaves a refusal to the handler when the route asks for it (attachValidation)', async () => {
    const app = serviceApp();
    declareRoute(
      app,
      'recordShareFunnelEvent',
      async (request, reply) => reply.code(204).header('x-valid', String(!request.validationError)).send(),
      { attachValidation: true },
    );
    const bad = await app.inject({
      method: 'POST',
      url: '/api/telemetry/share-funnel',
      payload: { event: 42 },
    });
    expect(bad.statusCode).toBe(204);
    expect(bad.headers['x-valid']).toBe('false');
    await app.close();
  });

  it('works on a plain fastify too: the route carries its own compilers', async () => {
    const app = Fastify();
    declareRoute(app, 'verifyEmail', async (request) => ({
      success: true,
      message: `Verified with ${request.query.token}`,
      user: { name: 'A', email: 'a@b.co' },
    }));
    const answer = await app.inject({ url: '/api/verify-email?token=abc' });
    expect(answer.json()).toEqual({
      success: true,
      message: 'Verified with abc',
      user: { name: 'A', email: 'a@b.co' },
    });
    await app.close();
  });

  it('refuses an operation id no route declares', () => {
    expect(() => contractOf('getEverything')).toThrow(
      'no route is declared with the operation id getEverything',
    );
  });

  it('refuses, at compile time, a handler whose answer or parameters do not fit the declaration', () => {
    const app = serviceApp();
    const never = () => {
      // @ts-expect-error: the count is a number
      declareRoute(app, 'countUnreadShares', async () => ({ success: true, count: 'two' }));
      // @ts-expect-error: `success` is declared `true`
      declareRoute(app, 'revokeDip', async () => ({ ok: true, success: false }));
      declareRoute(app, 'markShareViewed', async (request) => ({
        success: true,
        // @ts-expect-error: the path declares shareId, not id
        shareId: request.params.id,
        isViewed: true,
      }));
      const params: PathParams<'/api/online-dip/create/:searchId/:loanIndex'> = {
        searchId: 's',
        loanIndex: '0',
      };
      return params;
    };
    expect(typeof never).toBe('function');
  });
});
