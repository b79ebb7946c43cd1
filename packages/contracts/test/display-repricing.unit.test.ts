import {
  NO_OFFER_TEXT,
  repricedOfferText,
  repricingCounts,
  repricingSummary,
} from '../src/display/repricing';
import { searchRepricingSchema } from '../src/search/events';

const before = {
  lenderName: 'Harbour Bridge',
  productName: 'Bridge Plus',
  netLoan: 350000,
  interestRate: 0.096,
};
const after = { ...before, interestRate: 0.048 };

describe('a saved search re-priced by a lender panel change, in words', () => {
  it('names the lender and product, the net loan in whole pounds and the rate a year', () => {
    expect(repricedOfferText(before)).toBe('Harbour Bridge, Bridge Plus: £350,000 net at 9.60% a year');
    expect(repricedOfferText({ ...after, netLoan: 349999.6 })).toBe(
      'Harbour Bridge, Bridge Plus: £350,000 net at 4.80% a year',
    );
  });

  it('says there was no offer for a side without one, and leaves out a blank name', () => {
    expect(repricedOfferText(null)).toBe(NO_OFFER_TEXT);
    expect(repricedOfferText(undefined)).toBe(NO_OFFER_TEXT);
    expect(repricedOfferText({ ...before, productName: '  ' })).toBe(
      'Harbour Bridge: £350,000 net at 9.60% a year',
    );
  });

  it('counts offers gained and lost only when there are some', () => {
    expect(repricingCounts({ offersGained: 0, offersLost: 0 })).toEqual([]);
    expect(repricingCounts({ offersGained: 1, offersLost: 0 })).toEqual(['1 offer gained']);
    expect(repricingCounts({ offersGained: 2, offersLost: 1 })).toEqual(['2 offers gained', '1 offer lost']);
    expect(repricingCounts({ offersGained: 0, offersLost: 3 })).toEqual(['3 offers lost']);
  });

  it('summarises the change as the API gives it', () => {
    const repricing = searchRepricingSchema.parse({
      panelVersion: '2027-02',
      previousVersion: '2027-01',
      marker: 'New offers',
      bestBefore: null,
      bestAfter: after,
      offersGained: 1,
      offersLost: 0,
      betterBest: true,
      repricedAt: '2027-01-31T23:30:00.000Z',
    });
    expect(repricingSummary(repricing)).toEqual({
      marker: 'New offers',
      before: 'no offer',
      after: 'Harbour Bridge, Bridge Plus: £350,000 net at 4.80% a year',
      counts: ['1 offer gained'],
      betterBest: true,
      // UK time: still the 31st.
      repricedOn: '31/01/2027',
    });
  });
});
