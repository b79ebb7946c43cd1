import { derivedBuildCosts } from '../src/search-form/development-costs';
import {
  readSavedSearch,
  resultsFromApiResponse,
  searchRunIdOf,
  searchSummary,
} from '../src/saved-searches/saved-search';

describe('development derived costs', () => {
  it('adds the contingency to the build cost and assumes professional fees at 10%', () => {
    expect(
      derivedBuildCosts({ buildCost: 400000, contingencyIncluded: false, contingencyPercentage: 5 }),
    ).toEqual({ totalBuildCost: 420000, profCostsAndFees: 40000 });
  });

  it('adds nothing when the contingency is already in the build cost', () => {
    expect(
      derivedBuildCosts({ buildCost: 400000, contingencyIncluded: true, contingencyPercentage: 10 })
        .totalBuildCost,
    ).toBe(400000);
  });

  it('falls back to 5% when the percentage is empty or zero', () => {
    expect(derivedBuildCosts({ buildCost: 100000, contingencyPercentage: 0 }).totalBuildCost).toBe(105000);
    expect(derivedBuildCosts({ buildCost: 100000, contingencyPercentage: null }).totalBuildCost).toBe(105000);
  });

  it('clears both figures when there is no build cost', () => {
    expect(derivedBuildCosts({ buildCost: undefined })).toEqual({
      totalBuildCost: undefined,
      profCostsAndFees: undefined,
    });
  });
});

describe('saved search reading', () => {
  it('reads the stored snake_case record', () => {
    const view = readSavedSearch(
      {
        id: 7,
        loan_type: 'bridging',
        form_data: { propertyLocation: 'London', loanTerm: 12, purchasePrice: 200000 },
        api_response: { success: true, data: { Results: [{ LenderName: 'A' }], SearchRunId: 'run-7' } },
        created_at: '2026-11-20T10:00:00Z',
      },
      '7',
    );
    expect(view).toEqual({
      id: '7',
      loanType: 'bridging',
      formData: { propertyLocation: 'London', loanTerm: 12, purchasePrice: 200000 },
      results: [{ LenderName: 'A' }],
      searchRunId: 'run-7',
      createdAt: '2026-11-20T10:00:00Z',
    });
  });

  it('names no run for a stored answer without one (a deal cannot be shared from it)', () => {
    expect(readSavedSearch({ id: 8, api_response: [{ LenderName: 'A' }] }, '8').searchRunId).toBeNull();
    expect(searchRunIdOf({ data: { SearchRunId: '' } })).toBeNull();
    expect(searchRunIdOf({ data: { SearchRunId: 'run-9' } })).toBe('run-9');
  });

  it('accepts the results as a bare list or under Results', () => {
    expect(resultsFromApiResponse([{ LenderName: 'A' }, null])).toEqual([{ LenderName: 'A' }]);
    expect(resultsFromApiResponse({ Results: [{ LenderName: 'B' }] })).toEqual([{ LenderName: 'B' }]);
    expect(resultsFromApiResponse('nonsense')).toEqual([]);
  });

  it('summarises purchase price, GDV and the loan term in months (commercial terms are years)', () => {
    expect(searchSummary({ purchasePrice: 300000, gdv: 900000, loanTerm: 18 })).toMatchObject({
      propertyValueLabel: 'Purchase price',
      propertyValue: 300000,
      gdv: 900000,
      loanTermMonths: 18,
    });
    expect(searchSummary({ currentValue: 250000, mortgageTerm: 25 })).toMatchObject({
      propertyValueLabel: 'Current value',
      propertyValue: 250000,
      loanTermMonths: 300,
    });
  });

  it("labels an owned property's current value as such, never as a purchase price", () => {
    // The bridging form sends both figures; an owner's property is worth its current value.
    expect(
      searchSummary({ ownOrPurchase: 'Own', currentValue: 410000, purchasePrice: 200000, loanTerm: 12 }),
    ).toMatchObject({ propertyValueLabel: 'Current value', propertyValue: 410000 });
    expect(
      searchSummary({ ownOrPurchase: 'Purchasing', currentValue: 410000, purchasePrice: 380000 }),
    ).toMatchObject({ propertyValueLabel: 'Purchase price', propertyValue: 380000 });
  });
});
