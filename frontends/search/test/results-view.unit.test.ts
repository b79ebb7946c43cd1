import { readLoanOffer } from '../src/shared/loan-offer';
import {
  EMPTY_FILTERS,
  INITIAL_SORT,
  SORT_BUTTONS,
  applyResultsView,
  nextSortState,
  resultsCountLabel,
  sortDirectionFor,
} from '../src/results/results-view';

const offers = [
  readLoanOffer({
    LenderName: 'A',
    NetLoan: 300000,
    GrossLoan: 320000,
    InterestRate: 0.09,
    ProfitForecast: 100000,
    DepositRequired: 50000,
  }),
  readLoanOffer({
    LenderName: 'B',
    NetLoan: 500000,
    GrossLoan: 520000,
    InterestRate: 0.12,
    ProfitForecast: 60000,
    DepositRequired: 20000,
  }),
  readLoanOffer({
    LenderName: 'C',
    NetLoan: '400,000',
    GrossLoan: 420000,
    InterestRate: '0.10',
    ProfitForecast: 80000,
    DepositRequired: 35000,
  }),
];
const names = (list: typeof offers) => list.map((offer) => offer.lenderName);

describe('sort cycle', () => {
  it('goes none → descending → ascending → none for one key', () => {
    let sort = INITIAL_SORT;
    sort = nextSortState(sort, 'profit');
    expect(sortDirectionFor(sort, 'profit')).toBe('desc');
    sort = nextSortState(sort, 'profit');
    expect(sortDirectionFor(sort, 'profit')).toBe('asc');
    sort = nextSortState(sort, 'profit');
    expect(sortDirectionFor(sort, 'profit')).toBe('none');
  });

  it('starts another key at descending', () => {
    const sort = nextSortState(nextSortState(INITIAL_SORT, 'profit'), 'deposit');
    expect(sortDirectionFor(sort, 'deposit')).toBe('desc');
    expect(sortDirectionFor(sort, 'profit')).toBe('none');
  });
});

describe('the Rate sort', () => {
  it('orders by true monthly cost before the interest rate, and its button names true monthly cost', () => {
    const tmcFirst = [
      readLoanOffer({ LenderName: 'Low rate, dear TMC', InterestRate: 0.06, TrueMonthlyCost: 0.012 }),
      readLoanOffer({ LenderName: 'High rate, cheap TMC', InterestRate: 0.09, TrueMonthlyCost: 0.008 }),
    ];
    const ascending = applyResultsView(tmcFirst, EMPTY_FILTERS, { key: 'interestRate', direction: 'asc' });
    expect(ascending.map((offer) => offer.lenderName)).toEqual([
      'High rate, cheap TMC',
      'Low rate, dear TMC',
    ]);
    const rate = SORT_BUTTONS.find((button) => button.key === 'interestRate')!;
    expect(rate.label).toBe('Rate (TMC)');
    expect(rate.sorts).toBe('Rate (true monthly cost)');
  });
});

describe('applying filters and sort', () => {
  it('shows net loan descending when no sort is chosen', () => {
    expect(names(applyResultsView(offers, EMPTY_FILTERS, INITIAL_SORT))).toEqual(['B', 'C', 'A']);
  });

  it('sorts by each key in both directions', () => {
    expect(names(applyResultsView(offers, EMPTY_FILTERS, { key: 'interestRate', direction: 'asc' }))).toEqual(
      ['A', 'C', 'B'],
    );
    expect(names(applyResultsView(offers, EMPTY_FILTERS, { key: 'profit', direction: 'desc' }))).toEqual([
      'A',
      'C',
      'B',
    ]);
    expect(names(applyResultsView(offers, EMPTY_FILTERS, { key: 'deposit', direction: 'asc' }))).toEqual([
      'B',
      'C',
      'A',
    ]);
    expect(names(applyResultsView(offers, EMPTY_FILTERS, { key: 'netLoan', direction: 'asc' }))).toEqual([
      'A',
      'C',
      'B',
    ]);
  });

  it('keeps offers whose rate ×100 is not above the max, profit not below the min and deposit not above the max', () => {
    expect(
      names(applyResultsView(offers, { ...EMPTY_FILTERS, interestRateMax: '10' }, INITIAL_SORT)),
    ).toEqual(['C', 'A']);
    expect(names(applyResultsView(offers, { ...EMPTY_FILTERS, profitMin: '80000' }, INITIAL_SORT))).toEqual([
      'C',
      'A',
    ]);
    expect(names(applyResultsView(offers, { ...EMPTY_FILTERS, depositMax: '35000' }, INITIAL_SORT))).toEqual([
      'B',
      'C',
    ]);
  });

  it('ignores empty filters and counts an unparsable one as 0', () => {
    expect(
      applyResultsView(offers, { interestRateMax: ' ', profitMin: '', depositMax: '' }, INITIAL_SORT),
    ).toHaveLength(3);
    expect(applyResultsView(offers, { ...EMPTY_FILTERS, depositMax: 'abc' }, INITIAL_SORT)).toHaveLength(0);
  });

  it('counts results as "X of Y results"', () => {
    expect(resultsCountLabel(2, 3)).toBe('2 of 3 results');
  });
});
