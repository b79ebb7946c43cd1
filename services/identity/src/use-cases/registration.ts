import type { CreateAccountBody, RegisterBody, SaveLeadInfoBody } from '@lsp/contracts';
import { forbidden, unauthorized } from '@lsp/service-kit';
import { type Accounts, MESSAGES } from '../data/accounts';
import { type UserModel, publicUser } from '../data/users';
import type { RequestContext } from './request-context';

export interface RegistrationDeps {
  accounts: Accounts;
  users: UserModel;
}

/** The register page: an unverified account, its verification email asked for. */
export async function register(
  deps: Pick<RegistrationDeps, 'accounts'>,
  body: RegisterBody,
  context: RequestContext,
) {
  const user = await deps.accounts.signUp(
    {
      name: body.name,
      email: body.email,
      password: body.password,
      source: 'register',
      refDealId: body.refDealId,
      fromSharedLink: body.fromSharedLink,
      signupSearchRunId: body.searchRunId ?? undefined,
    },
    context.requestId,
  );
  context.log.info({ userId: user.id }, 'registered');
  return {
    success: true as const,
    user: publicUser(user),
    message: MESSAGES.registered,
    requiresVerification: true,
  };
}

/** The create-account page after an anonymous search: the account keeps the search it came from. */
export async function createAccount(
  deps: Pick<RegistrationDeps, 'accounts'>,
  body: CreateAccountBody,
  context: RequestContext,
) {
  const user = await deps.accounts.signUp(
    {
      name: body.name,
      email: body.email,
      password: body.password,
      phone: body.phone,
      source: 'create-account',
      signupSearchData: body.searchData,
      signupSearchRunId: body.searchRunId ?? undefined,
    },
    context.requestId,
  );
  context.log.info({ userId: user.id }, 'account created');
  return { success: true as const, message: MESSAGES.accountCreated };
}

/** The results gate's answers, kept on the caller's own account (naming another user is refused). */
export async function saveLeadInfo(
  deps: Pick<RegistrationDeps, 'users'>,
  userId: string,
  body: SaveLeadInfoBody,
) {
  if (body.userId && body.userId !== userId) throw forbidden();
  const { leadInfo } = body;
  const result = await deps.users.updateOne(
    { _id: userId },
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
  return { success: true as const };
}

/** Following the emailed link: the address is verified once. */
export async function verifyEmail(
  deps: Pick<RegistrationDeps, 'accounts'>,
  token: string,
  context: RequestContext,
) {
  const user = await deps.accounts.verifyEmail(token, context.requestId);
  context.log.info({ userId: user.id }, 'email verified');
  return {
    success: true as const,
    message: MESSAGES.verified,
    user: { name: user.name, email: user.email },
    // Someone who signed up from a shared deal goes on to it, in whichever browser they verify.
    ...(user.refDealId ? { refDealId: user.refDealId } : {}),
  };
}

/** A new verification link, under the resend allowance; the same answer whether or not the account exists. */
export async function resendVerification(
  deps: Pick<RegistrationDeps, 'accounts'>,
  email: string,
  context: RequestContext,
) {
  await deps.accounts.resendVerification(email, context.requestId);
  return { success: true as const, message: MESSAGES.verificationSent };
}
