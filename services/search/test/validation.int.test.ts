import { useHarness } from '@lsp/testing';
import { leadModel } from '../src/data/models/leads';
import { searchRunModels } from '../src/data/models/search-runs';
import {
  BRIDGING_PAYLOAD,
  COMMERCIAL_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  startSearchHarness,
} from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

/**
 * Bad payloads through the gateway: each gets a 400 with the message a person can act on, names the
 * field, and leaves nothing behind (no run, no lead, no event).
 */
describe('search payload validation through the gateway', () => {
  const h = useHarness(startSearchHarness);

  async function storedCounts() {
    const runs = searchRunModels(h.mongo);
    return {
      development: await runs.development.countDocuments(),
      bridging: await runs.bridging.countDocuments(),
      commercial: await runs.commercial.countDocuments(),
      leads: await leadModel(h.mongo).countDocuments(),
      outbox: (await h.outboxEntries()).length,
    };
  }

  const cases: Array<{ name: string; path: string; body: unknown; error: string; field?: string }> = [
    {
      name: 'a missing project name',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, projectName: undefined },
      error: 'Project name is required',
      field: 'projectName',
    },
    {
      name: 'a blank project name',
      path: '/api/bridging',
      body: { ...BRIDGING_PAYLOAD, projectName: '   ' },
      error: 'Project name is required',
      field: 'projectName',
    },
    {
      name: 'a purchase price of 0',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, purchasePrice: 0 },
      error: 'Purchase price is required',
      field: 'purchasePrice',
    },
    {
      name: 'a missing build cost',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, buildCost: undefined },
      error: 'Build cost is required',
      field: 'buildCost',
    },
    {
      name: 'a missing GDV',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, gdv: undefined },
      error: 'GDV is required',
      field: 'gdv',
    },
    {
      name: 'a build term of 0',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, buildTerm: 0 },
      error: 'Build term is required',
      field: 'buildTerm',
    },
    {
      name: 'a GDV given as words',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, gdv: 'three million' },
      error: 'GDV must be a number',
      field: 'gdv',
    },
    {
      name: 'a build cost given as an object',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, buildCost: { amount: 1 } },
      error: 'Build cost must be a number',
      field: 'buildCost',
    },
    {
      name: 'a huge purchase price',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, purchasePrice: 1e300 },
      error: 'Purchase price must be at most £1,000,000,000',
      field: 'purchasePrice',
    },
    {
      name: 'a huge loan term',
      path: '/api/bridging',
      body: { ...BRIDGING_PAYLOAD, loanTerm: 99999 },
      error: 'Loan term must be at most 600 months',
      field: 'loanTerm',
    },
    {
      name: 'a contingency above 100',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, contingencyPercentage: 150 },
      error: 'Contingency percentage must be between 0 and 100',
      field: 'contingencyPercentage',
    },
    {
      name: 'an unknown region',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, propertyLocation: 'Atlantis' },
      error:
        'Property location must be one of London, NorthWest, Midlands, EastAnglia, SouthEast, SouthWest, NorthEast, Wales, Scotland, NorthernIreland (received "Atlantis")',
      field: 'propertyLocation',
    },
    {
      name: 'an unknown bridging type',
      path: '/api/bridging',
      body: { ...BRIDGING_PAYLOAD, bridgingType: 'bridgingAnything' },
      error:
        'Bridging type must be one of bridgingPreconstruction, bridgingPurchaseOrRefinance, bridgingDeveloperExit, bridgingRefurbishment (received "bridgingAnything")',
      field: 'bridgingType',
    },
    {
      name: 'max loan given as a word',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, maxLoanRequired: 'yes' },
      error: 'Max loan required must be true or false',
      field: 'maxLoanRequired',
    },
    {
      name: 'no net loan without max loan (development)',
      path: '/api/development',
      body: { ...DEVELOPMENT_PAYLOAD, maxLoanRequired: false },
      error: 'Net loan amount is required when max loan is not selected',
      field: 'netLoanRequired',
    },
    {
      name: 'no net loan without max loan (bridging)',
      path: '/api/bridging',
      body: { ...BRIDGING_PAYLOAD, netLoanRequired: undefined },
      error: 'Net loan amount is required when max loan is not selected',
      field: 'netLoanRequired',
    },
    {
      name: 'no net loan without max loan (commercial)',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, maxLoanRequired: false },
      error: 'Net loan required must be specified when not requesting maximum loan',
      field: 'netLoanRequired',
    },
    {
      name: 'a missing mortgage term',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, mortgageTerm: undefined },
      error: 'Mortgage term is required',
      field: 'mortgageTerm',
    },
    {
      name: 'no rent on an investment property',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, grossMonthlyRentalIncome: undefined },
      error: 'Gross monthly rental income is required for investment properties',
      field: 'grossMonthlyRentalIncome',
    },
    {
      name: 'no current value when owned',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, currentValue: undefined },
      error: 'Current value is required when you own the property',
      field: 'currentValue',
    },
    {
      name: 'no price when purchasing',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, ownOrPurchase: 'Purchasing', purchaseCosts: 20000 },
      error: 'Purchase price and costs are required when purchasing',
      field: 'purchasePrice',
    },
    {
      name: 'no fixed term on a fixed rate',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, fixedRateTerm: undefined },
      error: 'Fixed rate term is required for fixed interest mortgages',
      field: 'fixedRateTerm',
    },
    {
      name: 'an unknown repayment type',
      path: '/api/commercial',
      body: { ...COMMERCIAL_PAYLOAD, loanRepaymentType: 'Balloon' },
      error:
        'Loan repayment type must be one of InterestOnly, Repayment, Capital&Interest (received "Balloon")',
      field: 'loanRepaymentType',
    },
    {
      name: 'a body that is an array',
      path: '/api/bridging',
      body: [BRIDGING_PAYLOAD],
      error: 'The request body must be a JSON object',
    },
  ];

  it.each(cases)('refuses $name with 400 and stores nothing', async ({ path, body, error, field }) => {
    const before = await storedCounts();
    const res = await h.client().post(path, body);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error });
    if (field) expect(res.json().fields[field]).toBe(error);
    expect(await storedCounts()).toEqual(before);
  });

  it('lists every problem of a form at once in fields', async () => {
    const res = await h
      .client()
      .post('/api/development', { projectName: '', purchasePrice: 'abc', maxLoanRequired: false });
    expect(res.status).toBe(400);
    expect(res.json().fields).toMatchObject({
      projectName: 'Project name is required',
      purchasePrice: 'Purchase price must be a number',
      buildCost: 'Build cost is required',
      gdv: 'GDV is required',
    });
  });

  it('refuses malformed JSON with 400', async () => {
    const before = await storedCounts();
    const res = await h.client().request('POST', '/api/development', { rawBody: '{"projectName": ' });
    expect(res.status).toBe(400);
    expect(res.json().success).toBe(false);
    expect(await storedCounts()).toEqual(before);
  });

  it('accepts numbers typed with a £ sign and thousands separators', async () => {
    const res = await h
      .client()
      .post('/api/bridging', { ...BRIDGING_PAYLOAD, currentValue: '£650,000', netLoanRequired: '350,000' });
    expect(res.status).toBe(200);
    const run = await searchRunModels(h.mongo).bridging.findById(res.json().data.SearchRunId).lean();
    expect(run).toMatchObject({ currentValue: 650000, netLoanRequired: 350000 });
  });

  it('ignores a stale net loan when max loan is chosen', async () => {
    const res = await h
      .client()
      .post('/api/development', { ...DEVELOPMENT_PAYLOAD, maxLoanRequired: true, netLoanRequired: 5 });
    expect(res.status).toBe(200);
    const run = await searchRunModels(h.mongo).development.findById(res.json().data.SearchRunId).lean();
    expect(run?.netLoanRequired).toBeUndefined();
  });
});
