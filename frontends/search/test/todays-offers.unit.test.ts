import {
  offersTabLabel,
  todaysOffersKey,
  todaysSaveBody,
  todaysSearchPayload,
} from '../src/saved-searches/todays-offers';

const saved = {
  projectName: 'Panel Row refinance',
  bridgingType: 'bridgingPurchaseOrRefinance',
  propertyLocation: 'London',
  currentValue: 650000,
  netLoanRequired: 350000,
  userId: 'u-1',
  lead: { email: 'pat@example.com' },
  loanType: 'bridging',
};

describe("a saved search's offers on today's panel", () => {
  it("sends the saved deal's fields only: not whose search it was, nor its lead", () => {
    expect(todaysSearchPayload(saved)).toEqual({
      projectName: 'Panel Row refinance',
      bridgingType: 'bridgingPurchaseOrRefinance',
      propertyLocation: 'London',
      currentValue: 650000,
      netLoanRequired: 350000,
    });
    expect(saved.userId).toBe('u-1');
  });

  it('keys the run by the search and the panel change', () => {
    expect(todaysOffersKey('s-1', '2027-02')).toEqual(['todays-offers', 's-1', '2027-02']);
    expect(todaysOffersKey('s-1', null)).toEqual(['todays-offers', 's-1', '']);
  });

  it('labels the tabs, with the count once known', () => {
    expect(offersTabLabel('saved', 4)).toBe('Saved offers (4)');
    expect(offersTabLabel('today', null)).toBe("Today's offers");
    expect(offersTabLabel('today', 0)).toBe("Today's offers (0)");
  });

  it("saves today's offers for the signed-in user with the saved deal", () => {
    const response = { success: true, data: { Results: [] } };
    expect(todaysSaveBody('u-2', 'bridging', saved, response)).toEqual({
      userId: 'u-2',
      loanType: 'bridging',
      searchData: todaysSearchPayload(saved),
      apiResponse: response,
    });
  });
});
