import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type PasswordDeps, changePassword, forgotPassword, resetPassword } from '../use-cases/passwords';
import type { DeviceCookies } from './device-cookie';
import { contextOf } from './request-context';
import { type SessionCookie, withRetryAfter } from './session-cookie';

export interface PasswordRouteDeps extends PasswordDeps {
  cookie: SessionCookie;
  devices: DeviceCookies;
}

/** Forgotten, reset and changed passwords: /api/auth/{forgot,reset,change}-password. */
export function registerPasswordRoutes(app: FastifyInstance, deps: PasswordRouteDeps) {
  const { cookie, devices } = deps;

  declareRoute(app, 'forgotPassword', async (request, reply) =>
    forgotPassword(
      deps,
      { email: request.body.email, clientAddress: request.clientAddress },
      contextOf(request),
    ).catch((err) => withRetryAfter(reply, err)),
  );

  declareRoute(app, 'resetPassword', async (request, reply) => {
    const { token, password } = request.body;
    const answer = await resetPassword(
      deps,
      {
        token,
        password,
        clientAddress: request.clientAddress,
        currentSessionId: cookie.sessionIdOf(request),
      },
      contextOf(request),
    );
    cookie.clear(reply);
    return answer;
  });

  declareRoute(app, 'changePassword', async (request, reply) => {
    const { currentPassword, password } = request.body;
    const changed = await changePassword(
      deps,
      {
        userId: request.caller.userId,
        currentPassword,
        password,
        clientAddress: request.clientAddress,
        trustedDeviceFor: (email) => devices.trustedDevice(request, email),
      },
      contextOf(request),
    ).catch((err) => withRetryAfter(reply, err));
    cookie.setNew(reply, changed.sessionId);
    return changed.answer;
  });
}
