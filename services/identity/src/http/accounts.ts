import { forbidden, unauthorized, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type Accounts, MESSAGES } from '../data/accounts';
import { type UserModel, publicUser } from '../data/users';

/** Creating an account (register, create-account) and the lead details kept on it. */
export function registerAccountRoutes(app: FastifyInstance, deps: { accounts: Accounts; users: UserModel }) {
  const { accounts, users } = deps;

  declareRoute(app, 'register', async (request, reply) => {
    const { body } = request;
    const user = await accounts.signUp(
      {
        name: body.name,
        email: body.email,
        password: body.password,
        source: 'register',
        refDealId: body.refDealId,
        fromSharedLink: body.fromSharedLink,
        signupSearchRunId: body.searchRunId ?? undefined,
      },
      request.id,
    );
    request.log.info({ userId: user.id }, 'registered');
    reply.status(201);
    return {
      success: true,
      user: publicUser(user),
      message: MESSAGES.registered,
      requiresVerification: true,
    };
  });

  declareRoute(app, 'createAccount', async (request, reply) => {
    const { body } = request;
    const user = await accounts.signUp(
      {
        name: body.name,
        email: body.email,
        password: body.password,
        phone: body.phone,
        source: 'create-account',
        signupSearchData: body.searchData,
        signupSearchRunId: body.searchRunId ?? undefined,
      },
      request.id,
    );
    request.log.info({ userId: user.id }, 'account created');
    reply.status(201);
    return { success: true, message: MESSAGES.accountCreated };
  });

  declareRoute(app, 'saveLeadInfo', async (request) => {
    const { caller, body } = request;
    if (body.userId && body.userId !== caller.userId) throw forbidden();
    const { leadInfo } = body;
    const result = await users.updateOne(
      { _id: caller.userId },
      {
        $set: {
          propertiesOwned: leadInfo.propertiesOwned,
          contactPreference: leadInfo.contactPreference,
          hasViewedProperty: leadInfo.hasViewedProperty,
          ownsProperty: leadInfo.ownsProperty,
          agreedPurchasePrice: leadInfo.agreedPurchasePrice,
          ...(leadInfo.consent !== undefined ? { consent: leadInfo.consent } : {}),
          ...(leadInfo.phone ? { phone: leadInfo.phone } : {}),
          leadSearchData: body.searchData,
          leadCapturedAt: new Date(),
        },
      },
    );
    if (result.matchedCount === 0) throw unauthorized('Not signed in');
    return { success: true };
  });
}
