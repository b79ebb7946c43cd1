import { bridgingSearchSchema } from '@lsp/contracts';
import { resultsIn } from '../src/use-cases/saved-search-state';
import { bridgingDebugInfo, countDeclinedByReason, searchMessage } from '../src/domain/search-response';
import { searchUserId } from '../src/use-cases/search-runner';

const caller = { userId: 'u1', email: 'a@b.co', name: 'A', verified: true };

describe('searchUserId', () => {
  it('records the signed-in caller', () => {
    expect(searchUserId(undefined, caller)).toBe('u1');
    expect(searchUserId('u1', caller)).toBe('u1');
  });

  it('refuses a signed-in caller naming another user with 403', () => {
    expect(() => searchUserId('u2', caller)).toThrow(expect.objectContaining({ statusCode: 403 }));
  });

  it('never trusts an id claimed by an anonymous caller', () => {
    expect(searchUserId('u2', null)).toBeNull();
  });
});

describe('countDeclinedByReason', () => {
  it('groups declined lenders by reason, most common first, ties alphabetical', () => {
    const declined = [
      { lender: 'A', lenderId: 'a', reason: 'Does not lend in Wales' },
      { lender: 'B', lenderId: 'b', reason: 'Does not offer bridging' },
      { lender: 'C', lenderId: 'c', reason: 'Does not lend in Wales' },
      { lender: 'D', lenderId: 'd', reason: 'Already full' },
    ];
    expect(countDeclinedByReason(declined)).toEqual([
      { reason: 'Does not lend in Wales', count: 2 },
      { reason: 'Already full', count: 1 },
      { reason: 'Does not offer bridging', count: 1 },
    ]);
  });
});

describe('searchMessage', () => {
  it('counts the options per loan type and says when there are none', () => {
    expect(searchMessage('bridging', 3)).toBe('Found 3 bridging loan options');
    expect(searchMessage('development', 1)).toBe('Found 1 development finance option');
    expect(searchMessage('commercial', 0)).toBe('No loan results found for your criteria');
  });
});

describe('bridgingDebugInfo', () => {
  const base = { projectName: 'P', loanTerm: 12, maxLoanRequired: true };

  it('sends the purchase costs on for a purchase and counts them in the project cost', () => {
    const payload = bridgingSearchSchema.parse({
      ...base,
      ownOrPurchase: 'Purchasing',
      purchasePrice: 300000,
      purchaseCosts: 12000,
      currentValue: 320000,
    });
    expect(bridgingDebugInfo(payload)).toEqual({
      purchaseCostsReceived: 12000,
      purchaseCostsSentToAPI: 12000,
      totalProjectCost: 312000,
      endpointUsed: 'bridging/bridgingPurchaseOrRefinance',
    });
  });

  it('reports purchase costs received but not used when the borrower already owns the property', () => {
    const payload = bridgingSearchSchema.parse({
      ...base,
      ownOrPurchase: 'Own',
      currentValue: 320000,
      purchaseCosts: 12000,
    });
    expect(bridgingDebugInfo(payload)).toMatchObject({
      purchaseCostsReceived: 12000,
      purchaseCostsSentToAPI: 0,
      totalProjectCost: 0,
    });
  });

  it('gives null when no purchase costs arrived', () => {
    const payload = bridgingSearchSchema.parse({
      ...base,
      bridgingType: 'bridgingRefurbishment',
      currentValue: 200000,
      buildCosts: 40000,
    });
    expect(bridgingDebugInfo(payload)).toMatchObject({
      purchaseCostsReceived: null,
      totalProjectCost: 40000,
      endpointUsed: 'bridging/bridgingRefurbishment',
    });
  });
});

describe('resultsIn', () => {
  it('reads the offers from each response shape clients save', () => {
    expect(resultsIn([{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(resultsIn({ success: true, data: { Results: [{ a: 2 }] } })).toEqual([{ a: 2 }]);
    expect(resultsIn({ Results: [{ a: 3 }] })).toEqual([{ a: 3 }]);
    expect(resultsIn({ data: { Results: 'none' } })).toEqual([]);
    expect(resultsIn(null)).toEqual([]);
  });
});
