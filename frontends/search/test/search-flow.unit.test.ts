import type { LeadForm } from '@lsp/contracts';
import type { LeadPayload, SaveSearchBody, SearchResponse, SessionUser } from '../src/shared/search-api';
import { runSearchFlow, type SearchFlowDeps } from '../src/home/search-flow';
import { createMemoryStorage } from '../src/shared/storage-keys';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const user: SessionUser = { id: 'u1', name: 'Ann', email: 'ann@example.com', verified: true };
type Offer = SearchResponse['data']['Results'][number];
type Score = NonNullable<SearchResponse['data']['LendabilityScore']>;

const offer: Offer = {
  LenderName: 'A',
  LenderId: 'a',
  ProductId: 'a-dev-1',
  ProductName: 'Development 1',
  LoanType: 'development',
  GrossLoan: 110000,
  NetLoan: 100000,
  InterestRate: 0.09,
  TrueMonthlyCost: 0.0095,
  ProfitForecast: 50000,
  DepositRequired: 40000,
  MonthlyPayment: 825,
  ArrangementFee: 2200,
  ArrangementFeePercOfValue: 2,
  LenderExitFee: 1100,
  OtherLenderCosts: 1500,
  LoanInterest: 9900,
  TotalLenderCosts: 14700,
  LoanToValue: 65,
  LoanToValueNet: 60,
  LoanTerm: 12,
  InterestTreatment: 'retained',
  qualifiesBecause: [],
  closeToLimits: [],
};
const results = [offer];

/** A search's answer as its contract has it, with the given offers and score. */
function answer(offers: Offer[], score?: Score): SearchResponse {
  return {
    success: true,
    message: 'Search completed',
    data: {
      Results: offers,
      Declined: [],
      Summary: {
        panelVersion: '2026-11',
        lendersSearched: 1,
        lendersWithoutProduct: 0,
        productsConsidered: 1,
        resultCount: offers.length,
        declinedCount: 0,
        declinedByReason: [],
      },
      SearchRunId: 'run-1',
      ...(score ? { LendabilityScore: score } : {}),
    },
  };
}

function score(points: number, band: Score['band'], tips: string[]): Score {
  return { score: points, band, factors: [], tips };
}

const ok = answer(results);
const lead: LeadForm = {
  name: 'Ann Lee',
  email: 'ann@example.com',
  propertiesOwned: '1',
  contactPreference: 'Email',
  consent: true,
};

function setup(overrides: Partial<SearchFlowDeps> & { users?: Array<SessionUser | null> } = {}) {
  const storage = createMemoryStorage({
    pendingLoanResults: JSON.stringify({ results: [], timestamp: 1, loanType: 'bridging' }),
  });
  const users = overrides.users ?? [null];
  let call = 0;
  const calls = {
    search: [] as Array<[string, Record<string, unknown>]>,
    leads: [] as LeadPayload[],
    saves: [] as SaveSearchBody[],
    journeys: 0,
  };
  const deps: SearchFlowDeps = {
    runSearch: async (type, payload) => {
      calls.search.push([type, payload]);
      return ok;
    },
    postLead: async (body) => {
      calls.leads.push(body);
      return score(55, 'yellow', ['Agree the purchase price with the seller', 'Second tip']);
    },
    currentUser: async () => users[Math.min(call++, users.length - 1)],
    saveSearch: async (body) => {
      calls.saves.push(body);
      return 's1';
    },
    storage,
    now: () => T0,
    log: () => undefined,
    startJourney: () => {
      calls.journeys += 1;
    },
    ...overrides,
  };
  return { deps, storage, calls };
}

describe('search flow', () => {
  it('holds an anonymous search for verification and sends the visitor to create an account', async () => {
    const { deps, storage, calls } = setup();
    const outcome = await runSearchFlow(deps, 'development', { projectName: 'Mill' }, lead);
    expect(outcome.kind).toBe('create-account');
    // An anonymous visitor's search opens the journey its lead and new account will share.
    expect(calls.journeys).toBe(1);
    expect(calls.search[0][1]).not.toHaveProperty('userId');
    expect(calls.saves).toHaveLength(0);
    const pending = JSON.parse(storage.getItem('pendingLoanResults') as string);
    expect(pending).toMatchObject({
      results,
      formData: { projectName: 'Mill' },
      loanType: 'development',
      timestamp: T0,
      userData: { email: 'ann@example.com' },
      // The run travels with the held results: the server saves its own record of it.
      searchRunId: 'run-1',
    });
    expect(outcome.toast).toEqual({
      title: 'Search completed successfully',
      description: 'Check your email to verify and view results',
      variant: 'success',
    });
  });

  it("sends development's lead inside the search request, not to /api/leads, and keeps its score", async () => {
    const scored = answer(results, score(72, 'green', []));
    const { deps, storage, calls } = setup({
      runSearch: async (type, payload) => {
        calls.search.push([type, payload]);
        return scored;
      },
    });
    await runSearchFlow(deps, 'development', { projectName: 'Mill' }, lead);
    expect(calls.leads).toHaveLength(0);
    expect(calls.search).toEqual([['development', { projectName: 'Mill', lead }]]);
    const pending = JSON.parse(storage.getItem('pendingLoanResults') as string);
    expect(pending.lendabilityScore).toEqual({ score: 72, tips: [] });
    // The stored form values are the search's, without the lead.
    expect(pending.formData).toEqual({ projectName: 'Mill' });
  });

  it('keeps the score /api/leads gave a bridging lead with the held results', async () => {
    const { deps, storage, calls } = setup();
    await runSearchFlow(deps, 'bridging', { projectName: 'Bridge' }, lead);
    expect(calls.search[0][1]).not.toHaveProperty('lead');
    const pending = JSON.parse(storage.getItem('pendingLoanResults') as string);
    expect(pending.lendabilityScore).toEqual({
      score: 55,
      tips: ['Agree the purchase price with the seller', 'Second tip'],
    });
  });

  it('posts the lead with the search type and payload', async () => {
    const { deps, calls } = setup();
    await runSearchFlow(deps, 'commercial', { projectName: 'Unit 4' }, lead);
    expect(calls.leads).toEqual([
      { ...lead, searchType: 'commercial', searchPayload: { projectName: 'Unit 4' } },
    ]);
  });

  it('attaches the user id, saves the search and shows results for a signed-in user', async () => {
    const { deps, storage, calls } = setup({ users: [user] });
    const outcome = await runSearchFlow(deps, 'bridging', { projectName: 'Bridge' }, null);
    expect(calls.search[0][1]).toMatchObject({ userId: 'u1' });
    expect(calls.journeys).toBe(0);
    expect(calls.saves[0]).toEqual({
      userId: 'u1',
      loanType: 'bridging',
      searchData: { projectName: 'Bridge' },
      apiResponse: ok,
    });
    expect(outcome).toMatchObject({ kind: 'shown', searchId: 's1', userId: 'u1', results });
    expect(outcome.toast.description).toBe('Found 1 bridging loan options');
    expect(storage.getItem('pendingLoanResults')).toBeNull();
  });

  it('clears the previous pending results when a new search starts, and records history', async () => {
    const { deps, storage } = setup({ users: [user] });
    await runSearchFlow(deps, 'development', { projectName: 'Mill' }, null);
    expect(storage.getItem('pendingLoanResults')).toBeNull();
    expect(JSON.parse(storage.getItem('loan-search-history-development') as string)[0].description).toBe(
      'Mill - Development Finance',
    );
    expect(JSON.parse(storage.getItem('searchFormData') as string)).toEqual({
      projectName: 'Mill',
      loanType: 'development',
    });
  });

  it('re-checks the session and retries the save once when the server does not know the user', async () => {
    let attempts = 0;
    const { deps } = setup({
      users: [user, user, { ...user, id: 'u2' }],
      saveSearch: async (body) => {
        attempts += 1;
        if (attempts === 1) throw new Error('User ID not found');
        return `saved-for-${body.userId}`;
      },
    });
    const outcome = await runSearchFlow(deps, 'development', { projectName: 'Mill' }, null);
    expect(attempts).toBe(2);
    expect(outcome).toMatchObject({ kind: 'shown', searchId: 'saved-for-u2' });
  });

  it('falls through to create-account when saving fails for another reason', async () => {
    const saveSearch = jest.fn(async () => {
      throw new Error('database unavailable');
    });
    const { deps, storage } = setup({ users: [user], saveSearch });
    const outcome = await runSearchFlow(deps, 'development', { projectName: 'Mill' }, null);
    expect(saveSearch).toHaveBeenCalledTimes(1);
    expect(outcome.kind).toBe('create-account');
    expect(storage.getItem('pendingLoanResults')).not.toBeNull();
  });

  it('holds results behind the verify gate for a signed-in user whose email is not verified', async () => {
    const { deps, calls } = setup({ users: [{ ...user, verified: false }] });
    const outcome = await runSearchFlow(deps, 'commercial', { projectName: 'Unit' }, null);
    expect(outcome.kind).toBe('held-for-verification');
    expect(calls.saves).toHaveLength(0);
  });

  it.each<[string, Partial<SearchFlowDeps>]>([
    ['the call fails', { runSearch: async () => Promise.reject(new Error('500')) }],
    // Not the contract's answer (a proxy's page, say): what the service never sends is still survived.
    [
      'results are missing',
      { runSearch: async () => ({ success: true, data: {} }) as unknown as SearchResponse },
    ],
  ])('reports "Search failed" when %s', async (_label, override) => {
    const { deps, storage } = setup(override);
    const outcome = await runSearchFlow(deps, 'development', { projectName: 'Mill' }, null);
    expect(outcome).toEqual({
      kind: 'failed',
      toast: { title: 'Search failed', description: 'Please try again or contact support', variant: 'error' },
    });
    expect(storage.getItem('loan-search-history-development')).toBeNull();
  });

  it('treats an empty bridging result list as a failure', async () => {
    const { deps } = setup({ runSearch: async () => answer([]) });
    const outcome = await runSearchFlow(deps, 'bridging', { projectName: 'B' }, null);
    expect(outcome).toEqual({
      kind: 'failed',
      toast: {
        title: 'Search failed',
        description: 'No loan results found for your criteria',
        variant: 'error',
      },
    });
  });

  it('still runs the search when recording the lead fails', async () => {
    const { deps, calls } = setup({ postLead: async () => Promise.reject(new Error('down')) });
    const outcome = await runSearchFlow(deps, 'bridging', { projectName: 'B' }, lead);
    expect(calls.search).toHaveLength(1);
    expect(outcome.kind).toBe('create-account');
  });
});
