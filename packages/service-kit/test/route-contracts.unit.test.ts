import {
  NON_CONFORMING_RESPONSE,
  ServiceMetrics,
  createServiceApp,
  declaredApiRoutes,
  registeredApiRoutes,
} from '../src';
import { loggerCapturingLines } from './captured-logs';

function identityApp(checkResponses: boolean) {
  const { logger, lines } = loggerCapturingLines('identity');
  const app = createServiceApp({
    name: 'identity',
    logger,
    metrics: new ServiceMetrics('identity'),
    checkResponses,
  });
  return { app, lines };
}

const user = { id: 'u1', name: 'Ann', email: 'ann@example.com', verified: true };

describe('routes held to their contracts', () => {
  it('refuses to register an /api route the contracts do not declare for the service', async () => {
    const { app } = identityApp(false);
    expect(() => app.get('/api/auth/whoami', async () => ({}))).toThrow(
      /identity registers GET \/api\/auth\/whoami, which @lsp\/contracts does not declare/,
    );
    await app.close();
  });

  it("refuses another service's declared route", async () => {
    const { app } = identityApp(false);
    expect(() => app.post('/api/leads', async () => ({}))).toThrow(/identity registers POST \/api\/leads/);
    await app.close();
  });

  it('records the declared routes it registers; paths outside /api are not its business', async () => {
    const { app } = identityApp(false);
    app.get('/api/auth/me', async () => ({ user }));
    app.get('/internal/thing', async () => ({}));
    await app.ready();
    expect(registeredApiRoutes('identity')).toEqual(['GET /api/auth/me']);
    expect(declaredApiRoutes('identity')).toContain('GET /api/auth/me');
    await app.close();
  });

  it('passes an answer that matches its declared response, errors included', async () => {
    const { app } = identityApp(true);
    app.get('/api/auth/me', async (request) => {
      if (request.headers['x-signed-out'])
        return Promise.reject(Object.assign(new Error('x'), { statusCode: 401 }));
      return { user };
    });
    expect((await app.inject({ url: '/api/auth/me' })).json()).toEqual({ user });
    const signedOut = await app.inject({ url: '/api/auth/me', headers: { 'x-signed-out': '1' } });
    expect(signedOut.statusCode).toBe(401);
    await app.close();
  });

  it('turns an answer that does not match into a 500 with a clear log line', async () => {
    const { app, lines } = identityApp(true);
    app.get('/api/auth/me', async () => ({ user: { ...user, verified: 'yes' } }));
    const response = await app.inject({ url: '/api/auth/me' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      error: expect.stringContaining(`${NON_CONFORMING_RESPONSE} (GET /api/auth/me user.verified:`),
    });
    expect(lines.join('')).toContain(
      `${NON_CONFORMING_RESPONSE}: GET /api/auth/me answered 200: user.verified`,
    );
    await app.close();
  });

  it('catches a status the route does not declare', async () => {
    const { app } = identityApp(true);
    app.get('/api/auth/me', async (_request, reply) => reply.code(202).send({ user }));
    const response = await app.inject({ url: '/api/auth/me' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toContain('status 202 is not declared');
    await app.close();
  });

  it('leaves answers alone when the checks are off (production)', async () => {
    const { app } = identityApp(false);
    app.get('/api/auth/me', async () => ({ user: { ...user, verified: 'yes' } }));
    expect((await app.inject({ url: '/api/auth/me' })).statusCode).toBe(200);
    await app.close();
  });
});
