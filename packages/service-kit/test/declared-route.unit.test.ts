import Fastify from 'fastify';
import { type PathParams, contractOf, declareRoute } from '../src/declared-route';

describe('declareRoute', () => {
  it("registers the handler at the declaration's method and path", async () => {
    const app = Fastify();
    declareRoute(app, 'countUnreadShares', async () => ({ success: true, count: 2 }));
    declareRoute(app, 'markShareViewed', async (request) => ({
      success: true,
      shareId: request.params.shareId,
      isViewed: true,
    }));
    const count = await app.inject({ method: 'GET', url: '/api/shared/unread-count' });
    expect(count.json()).toEqual({ success: true, count: 2 });
    const viewed = await app.inject({ method: 'POST', url: '/api/shared/s-1/mark-viewed' });
    expect(viewed.json()).toEqual({ success: true, shareId: 's-1', isViewed: true });
    // Only the declared method answers.
    expect((await app.inject({ method: 'GET', url: '/api/shared/s-1/mark-viewed' })).statusCode).toBe(404);
    await app.close();
  });

  it('refuses an operation id no route declares', () => {
    expect(() => contractOf('getEverything')).toThrow(
      'no route is declared with the operation id getEverything',
    );
  });

  it('refuses, at compile time, a handler whose answer or parameters do not fit the declaration', () => {
    const app = Fastify();
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
