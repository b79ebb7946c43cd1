import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type Accounts, MESSAGES } from '../data/accounts';
import { withRetryAfter } from './session-cookie';

/** Email verification: following the emailed link, and asking for a new one. */
export function registerVerificationRoutes(app: FastifyInstance, deps: { accounts: Accounts }) {
  const { accounts } = deps;

  declareRoute(app, 'verifyEmail', async (request) => {
    const { token } = request.query;
    const user = await accounts.verifyEmail(token, request.id);
    request.log.info({ userId: user.id }, 'email verified');
    return {
      success: true,
      message: MESSAGES.verified,
      user: { name: user.name, email: user.email },
      // Someone who signed up from a shared deal goes on to it, in whichever browser they verify.
      ...(user.refDealId ? { refDealId: user.refDealId } : {}),
    };
  });

  declareRoute(app, 'resendVerification', async (request, reply) => {
    const { email } = request.body;
    await accounts.resendVerification(email, request.id).catch((err) => withRetryAfter(reply, err));
    return { success: true, message: MESSAGES.verificationSent };
  });
}
