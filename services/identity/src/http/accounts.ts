import { createAccountBodySchema, registerBodySchema, saveLeadInfoBodySchema } from '@lsp/contracts';
import { forbidden, parseInput, requireCaller, unauthorized } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type Accounts, MESSAGES } from '../data/accounts';
import { type UserModel, publicUser } from '../data/users';

/** Creating an account (register, create-account) and the lead details kept on it. */
export function registerAccountRoutes(app: FastifyInstance, deps: { accounts: Accounts; users: UserModel }) {
  const { accounts, users } = deps;

  app.post('/api/auth/register', async (request, reply) => {
    const body = parseInput(registerBodySchema, request.body);
    const user = await accounts.signUp(
      {
        name: body.name,
        email: body.email,
        password: body.password,
        source: 'register',
        refDealId: body.refDealId,
        fromSharedLink: body.fromSharedLink,
      },
      request.id,
    );
    request.log.info({ userId: user.id }, 'registered');
    return reply.status(201).send({
      success: true,
      user: publicUser(user),
      message: MESSAGES.registered,
      requiresVerification: true,
    });
  });

  app.post('/api/create-account', async (request, reply) => {
    const body = parseInput(createAccountBodySchema, request.body);
    const user = await accounts.signUp(
      {
        name: body.name,
        email: body.email,
        password: body.password,
        phone: body.phone,
        source: 'create-account',
        signupSearchData: body.searchData,
      },
      request.id,
    );
    request.log.info({ userId: user.id }, 'account created');
    return reply.status(201).send({ success: true, message: MESSAGES.accountCreated });
  });

  app.post('/api/save-lead-info', async (request) => {
    const caller = requireCaller(request);
    const body = parseInput(saveLeadInfoBodySchema, request.body);
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
