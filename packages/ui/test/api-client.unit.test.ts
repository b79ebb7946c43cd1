import { readFileSync } from 'node:fs';
import { PUBLIC_API_ROUTES } from '@lsp/contracts';
import { API_ROUTES_MODULE, renderApiRoutesModule } from '../../../scripts/lib/api-client-codegen';
import { ApiError, type ApiResult, apiPath, callApi, requestApi } from '../src/app/api';
import { API_ROUTES } from '../src/app/api-routes.generated';

interface Sent {
  url: string;
  init: RequestInit;
}

/** Answers every fetch with `status` and `body`, recording what was sent. */
function answerWith(status: number, body: unknown): Sent[] {
  const sent: Sent[] = [];
  global.fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  }) as typeof fetch;
  return sent;
}

describe("the browser's typed API client", () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('takes its route table from the contracts: regenerated, it is unchanged', () => {
    // Fails when a route is added or changed without `npm run generate:api-client`.
    expect(readFileSync(API_ROUTES_MODULE, 'utf8')).toBe(renderApiRoutesModule());
    expect(Object.keys(API_ROUTES)).toHaveLength(PUBLIC_API_ROUTES.length);
    for (const route of PUBLIC_API_ROUTES)
      expect(API_ROUTES[route.operationId as keyof typeof API_ROUTES]).toEqual({
        method: route.method,
        path: route.path,
        auth: route.auth,
      });
  });

  it('builds paths with every parameter encoded and the query appended', () => {
    expect(
      apiPath('createDip', { params: { searchId: 'a/b c', loanIndex: '2' }, body: { validHours: 48 } }),
    ).toBe('/api/online-dip/create/a%2Fb%20c/2');
    expect(apiPath('openSharedDip', { params: { slug: 's1' }, query: { e: '1700000000', sig: 'x+y' } })).toBe(
      '/api/online-dip/shared/s1?e=1700000000&sig=x%2By',
    );
    // Undefined query values are left out; an empty parameter is refused rather than sent as `//`.
    expect(apiPath('listDeadLetters', { query: { status: undefined, topic: 'dip.created' } })).toBe(
      '/api/ops/dead-letters?topic=dip.created',
    );
    expect(() => apiPath('getDip', { params: { reference: '' } })).toThrow(
      'getDip: the path parameter reference is missing',
    );
  });

  it("sends the declared method, JSON body and the browser's cookies", async () => {
    const sent = answerWith(200, { success: true, expiresAt: '2026-12-25T00:00:00.000Z', ok: true });
    const answer = await callApi('setDipExpiry', {
      params: { dipId: 'd1' },
      body: { expiresAt: '2026-12-25T00:00:00.000Z' },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/api/online-dip/d1/expiry');
    expect(sent[0]!.init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ expiresAt: '2026-12-25T00:00:00.000Z' });
    expect((sent[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(answer).toEqual({
      ok: true,
      status: 200,
      data: { success: true, expiresAt: '2026-12-25T00:00:00.000Z', ok: true },
    });
  });

  it("answers a failure with its status and the server's error, never throwing on a status", async () => {
    answerWith(403, { success: false, error: 'Forbidden' });
    const answer = await callApi('revokeDip', { params: { dipId: 'd1' } });
    expect(answer).toEqual({ ok: false, status: 403, data: { success: false, error: 'Forbidden' } });
  });

  it("throws an ApiError carrying the status and the server's message when asked to resolve the body", async () => {
    answerWith(410, { success: false, error: 'This DIP has expired' });
    const failure = requestApi('getDip', { params: { reference: 'd1' } }, { on401: 'throw' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 410, message: 'This DIP has expired' });

    answerWith(502, null);
    await expect(requestApi('countUnreadShares')).rejects.toMatchObject({
      status: 502,
      message: 'API request failed: 502',
    });

    const list = { success: true, count: 3 } satisfies ApiResult<'countUnreadShares'>;
    answerWith(200, list);
    await expect(requestApi('countUnreadShares')).resolves.toEqual(list);
  });

  it('refuses, at compile time, a call that does not fit its declaration', () => {
    // Each line below is a type error, so this test file fails `npm run typecheck` if one compiles.
    const never = () => {
      // @ts-expect-error: no such operation
      void callApi('getEverything');
      // @ts-expect-error: createDip takes searchId and loanIndex, not dipId
      void callApi('createDip', { params: { dipId: 'd1' }, body: {} });
      // @ts-expect-error: setDipExpiry needs its dipId
      void callApi('setDipExpiry', { body: {} });
      // @ts-expect-error: propertiesOwned is one of the declared answers
      void callApi('saveLeadInfo', { body: { leadInfo: { propertiesOwned: 'lots' } } });
      // @ts-expect-error: the count is a number
      const count: string = null as unknown as ApiResult<'countUnreadShares'>['count'];
      return count;
    };
    expect(typeof never).toBe('function');
  });
});
