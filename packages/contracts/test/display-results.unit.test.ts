import {
  INITIAL_SORT,
  formatRelativeTime,
  hasActiveFilters,
  historyDescription,
  isSorted,
  lendabilityBand,
  nextSortState,
  effectiveSort,
  offerPassesFilters,
  sortOffers,
} from '../src/display';

const offers = [
  {
    LenderName: 'A',
    InterestRate: 0.09,
    TrueMonthlyCost: 0.008,
    ProfitForecast: 300000,
    DepositRequired: 100000,
    NetLoan: 500000,
  },
  {
    LenderName: 'B',
    InterestRate: '0.12',
    ProfitForecast: '150000',
    DepositRequired: '50,000',
    NetLoan: '700000',
  },
  {
    LenderName: 'C',
    InterestRate: 0.07,
    TrueMonthlyCost: 0.0065,
    ProfitForecast: 500000,
    DepositRequired: 250000,
    NetLoan: 600000,
  },
];

describe('filters', () => {
  it('keeps an offer whose TMC (or rate) × 100 is not above the maximum', () => {
    expect(offerPassesFilters(offers[0], { interestRateMax: 0.8 })).toBe(true);
    expect(offerPassesFilters(offers[0], { interestRateMax: '0.79' })).toBe(false);
    // No TMC: the annual rate × 100 is compared.
    expect(offerPassesFilters(offers[1], { interestRateMax: 12 })).toBe(true);
    expect(offerPassesFilters(offers[1], { interestRateMax: 11.9 })).toBe(false);
  });

  it('keeps profit at or above the minimum and deposit at or below the maximum', () => {
    expect(offerPassesFilters(offers[1], { profitMin: 150000 })).toBe(true);
    expect(offerPassesFilters(offers[1], { profitMin: 150001 })).toBe(false);
    expect(offerPassesFilters(offers[2], { depositMax: '250,000' })).toBe(true);
    expect(offerPassesFilters(offers[2], { depositMax: 249999 })).toBe(false);
  });

  it('ignores empty filters and counts unparsable ones as 0', () => {
    expect(
      offerPassesFilters(offers[0], { interestRateMax: '', profitMin: null, depositMax: undefined }),
    ).toBe(true);
    expect(hasActiveFilters({ interestRateMax: '' })).toBe(false);
    expect(offerPassesFilters(offers[0], { depositMax: 'abc' })).toBe(false);
    expect(offerPassesFilters(offers[0], { profitMin: 'abc' })).toBe(true);
    expect(hasActiveFilters({ profitMin: 'abc' })).toBe(true);
  });
});

describe('sort', () => {
  it('cycles none → descending → ascending → none on one key', () => {
    const first = nextSortState(INITIAL_SORT, 'profit');
    expect(first).toEqual({ key: 'profit', direction: 'desc' });
    const second = nextSortState(first, 'profit');
    expect(second).toEqual({ key: 'profit', direction: 'asc' });
    const third = nextSortState(second, 'profit');
    expect(third).toEqual({ key: null, direction: 'none' });
    expect(isSorted(third)).toBe(false);
  });

  it('starts from the default order: Net Loan first goes ascending, then back to the default', () => {
    expect(effectiveSort(INITIAL_SORT)).toEqual({ key: 'netLoan', direction: 'desc' });
    const first = nextSortState(INITIAL_SORT, 'netLoan');
    expect(first).toEqual({ key: 'netLoan', direction: 'asc' });
    expect(nextSortState(first, 'netLoan')).toEqual(INITIAL_SORT);
    // Choosing Net Loan after another key lands on the default order, not a 'Sorted' copy of it.
    expect(nextSortState({ key: 'profit', direction: 'desc' }, 'netLoan')).toEqual(INITIAL_SORT);
  });

  it('starts descending when another key is chosen', () => {
    expect(nextSortState({ key: 'profit', direction: 'asc' }, 'deposit')).toEqual({
      key: 'deposit',
      direction: 'desc',
    });
  });

  it('defaults to net loan descending and sorts numbers given as text', () => {
    expect(sortOffers(offers, INITIAL_SORT).map((o) => o.LenderName)).toEqual(['B', 'C', 'A']);
    expect(sortOffers(offers, { key: 'deposit', direction: 'asc' }).map((o) => o.LenderName)).toEqual([
      'B',
      'A',
      'C',
    ]);
    expect(sortOffers(offers, { key: 'interestRate', direction: 'desc' }).map((o) => o.LenderName)).toEqual([
      'B',
      'A',
      'C',
    ]);
  });

  it('puts offers without the figure last', () => {
    const withMissing = [...offers, { LenderName: 'D', NetLoan: 'n/a' }];
    expect(sortOffers(withMissing, { key: 'netLoan', direction: 'asc' }).at(-1)?.LenderName).toBe('D');
  });
});

describe('search history', () => {
  const now = Date.parse('2025-11-21T12:00:00Z');
  it.each([
    [30_000, 'Just now'],
    [60_000, '1m ago'],
    [59 * 60_000, '59m ago'],
    [60 * 60_000, '1h ago'],
    [23 * 3_600_000 + 59 * 60_000, '23h ago'],
    [24 * 3_600_000, '1d ago'],
    [9 * 24 * 3_600_000, '9d ago'],
  ])('shows %s ms ago as %s', (elapsed, label) => {
    expect(formatRelativeTime(now - elapsed, now)).toBe(label);
  });

  it('describes an item by project name and loan type', () => {
    expect(historyDescription('development', 'Mill Lane')).toBe('Mill Lane - Development Finance');
    expect(historyDescription('bridging', '  ')).toBe('Unnamed Project - Bridging Finance');
    expect(historyDescription('commercial')).toBe('Unnamed Project - Commercial Finance');
    expect(historyDescription('mortgage', 'X')).toBe('X - Previous search');
  });
});

describe('lendability band', () => {
  it('is green from 70, yellow from 50, red below', () => {
    expect([100, 70, 69, 50, 49, 0].map(lendabilityBand)).toEqual([
      'green',
      'green',
      'yellow',
      'yellow',
      'red',
      'red',
    ]);
  });
});
