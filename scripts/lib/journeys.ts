/**
 * What the chaos run and the load benchmark do through the gateway as a person would: the three
 * searches as the forms send them, and a verified, signed-in account (registration, the link from the
 * mail catcher, sign-in).
 */
import { randomUUID } from 'node:crypto';
import { CookieClient } from '@lsp/testing';

/** One valid search of each kind, as the forms send them. */
export const SEARCH_PAYLOADS = {
  bridging: {
    projectName: 'Chapel Street refinance',
    bridgingType: 'bridgingPurchaseOrRefinance',
    propertyLocation: 'London',
    propertyClass: 'Residential',
    currentValue: 650000,
    purchasePrice: 600000,
    purchaseCosts: 25000,
    ownOrPurchase: 'Purchasing',
    landOrProperty: 'Property',
    loanTerm: 12,
    maxLoanRequired: false,
    netLoanRequired: 350000,
  },
  development: {
    projectName: 'Riverside Mews',
    purchasePrice: '1,200,000',
    buildCost: 900000,
    purchaseCosts: 60000,
    propertyLocation: 'SouthEast',
    propertyClass: 'Residential',
    gdv: 3200000,
    buildTerm: 12,
    loanTerm: 18,
    maxLoanRequired: true,
  },
  commercial: {
    projectName: 'High Street offices',
    propertyLocation: 'Midlands',
    currentPropertyType: 'Office',
    isOwnerOccupied: false,
    grossMonthlyRentalIncome: 9000,
    mortgageTerm: 20,
    ownOrPurchase: 'Own',
    currentValue: 1500000,
    borrowingEntityType: 'Company',
    timeLeftOnLease: 'MoreThanThreeYears',
    mortgageInterestType: 'Fixed',
    fixedRateTerm: 'FiveYear',
    loanRepaymentType: 'InterestOnly',
    loanCompletionType: 'AsSoonAsPossible',
    maxLoanRequired: true,
  },
} as const;
export type LoanType = keyof typeof SEARCH_PAYLOADS;
export const LOAN_TYPES = Object.keys(SEARCH_PAYLOADS) as LoanType[];

/** The header a browser sends with every state-changing request from the platform's own pages. */
export const sameOrigin = (baseUrl: string) => ({ origin: new URL(baseUrl).origin });

export interface SignedInUser {
  client: CookieClient;
  email: string;
  password: string;
  userId: string;
}

interface CaughtMessage {
  to: string[];
  links: string[];
}

/** The verification link among the mail catcher's messages (`GET /dev/mail/messages`), if it is there. */
export function findVerificationLink(messages: CaughtMessage[], email: string): string | undefined {
  return messages
    .find((m) => m.to.some((to) => to.toLowerCase() === email))
    ?.links.find((l) => l.includes('token='));
}

/** The verification link sent to `email`, read from the mail catcher (waits up to 20 s for it). */
export async function verificationLink(client: CookieClient, email: string): Promise<string> {
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    const res = await client.get('/dev/mail/messages');
    if (res.status === 200) {
      const link = findVerificationLink(res.json().messages, email);
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification email for ${email}`);
}

/** Registers, verifies through the emailed link and signs in; throws with the answer when a step fails. */
export async function signUpVerified(
  baseUrl: string,
  name = 'Load Tester',
  email = `person-${randomUUID()}@example.com`,
): Promise<SignedInUser> {
  const client = new CookieClient(baseUrl);
  const headers = sameOrigin(baseUrl);
  const password = 'a-long-password-1';
  const step = async (what: string, res: Promise<{ status: number; text: string }>) => {
    const answer = await res;
    if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  };
  await step('register', client.post('/api/auth/register', { name, email, password }, { headers }));
  const token = new URL(await verificationLink(client, email)).searchParams.get('token')!;
  await step('verify', client.get(`/api/verify-email?token=${encodeURIComponent(token)}`));
  await step('sign in', client.post('/api/login', { email, password }, { headers }));
  const me = await client.get('/api/auth/me');
  return { client, email, password, userId: me.json().user.id as string };
}
