import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  type SignInDeps,
  currentUser,
  sessionSecondsLeft,
  signIn,
  signOut,
  signOutEverywhere,
} from '../use-cases/sign-in';
import type { DeviceCookies } from './device-cookie';
import { contextOf } from './request-context';
import { type SessionCookie, withRetryAfter } from './session-cookie';

export interface SessionRouteDeps extends SignInDeps {
  cookie: SessionCookie;
  devices: DeviceCookies;
}

/** Signing in and out: /api/auth/me, /api/login, /api/logout, /api/auth/logout-all. */
export function registerSessionRoutes(app: FastifyInstance, deps: SessionRouteDeps) {
  const { cookie, devices } = deps;

  declareRoute(
    app,
    'getCurrentUser',
    async (request, reply) => {
      // The header asks on every page load: renewing the cookie here keeps an active browser signed
      // in for as long as its session slides forward in Redis.
      const sessionId = cookie.sessionIdOf(request);
      const secondsLeft = await sessionSecondsLeft(deps, sessionId);
      if (sessionId && secondsLeft !== null) cookie.renew(reply, sessionId, secondsLeft);
      return currentUser(request.caller);
    },
    { signInMessage: 'Not signed in' },
  );

  declareRoute(app, 'login', async (request, reply) => {
    const { email, password } = request.body;
    const signedIn = await signIn(
      deps,
      {
        email,
        password,
        clientAddress: request.clientAddress,
        previousSessionId: cookie.sessionIdOf(request),
        trustedDeviceFor: (accountEmail) => devices.trustedDevice(request, accountEmail),
      },
      contextOf(request),
    ).catch((err) => withRetryAfter(reply, err));
    cookie.setNew(reply, signedIn.sessionId);
    devices.issue(reply, signedIn.email);
    return signedIn.answer;
  });

  declareRoute(app, 'logout', async (request, reply) => {
    const answer = await signOut(deps, cookie.sessionIdOf(request));
    cookie.clear(reply);
    return answer;
  });

  declareRoute(app, 'logoutEverywhere', async (request, reply) => {
    const answer = await signOutEverywhere(deps, request.caller.userId, contextOf(request));
    cookie.clear(reply);
    return answer;
  });
}
