import { readLoanOffer } from '../src/shared/loan-offer';
import {
  type ResultsPanelAction,
  type ResultsPanelState,
  initialResultsPanelState,
  resultsBadges,
  resultsPanelReducer,
  shownOffers,
} from '../src/results/results-panel-model';

const offer = (lender: string, netLoan: number, interestRate: number, profit: number, deposit: number) =>
  readLoanOffer({
    LenderName: lender,
    NetLoan: netLoan,
    GrossLoan: netLoan + 20000,
    InterestRate: interestRate,
    ProfitForecast: profit,
    DepositRequired: deposit,
  });
const offers = [
  offer('A', 300000, 0.09, 100000, 50000),
  offer('B', 500000, 0.12, 60000, 20000),
  offer('C', 400000, 0.1, 80000, 35000),
  offer('D', 350000, 0.11, 90000, 30000),
];
const [a, b, c, d] = offers;

const run = (actions: ResultsPanelAction[], from: ResultsPanelState = initialResultsPanelState) =>
  actions.reduce(resultsPanelReducer, from);
const names = (state: ResultsPanelState) => shownOffers(offers, state).map((o) => o.lenderName);

describe('the results panel model', () => {
  it('starts expanded, unfiltered, in the default order (net loan, largest first), nothing picked', () => {
    expect(names(initialResultsPanelState)).toEqual(['B', 'C', 'D', 'A']);
    expect(resultsBadges(initialResultsPanelState)).toEqual({ filtered: false, sorted: false });
    expect(initialResultsPanelState).toMatchObject({ compact: false, showFilters: false, selected: [] });
  });

  it('filters as the inputs are typed, shows the Filtered badge, and clears back to every offer', () => {
    const shown = run([{ kind: 'filters-toggled' }]);
    expect(shown.showFilters).toBe(true);

    const filtered = run(
      [
        { kind: 'filter-typed', key: 'interestRateMax', value: '11' },
        { kind: 'filter-typed', key: 'depositMax', value: '40000' },
      ],
      shown,
    );
    expect(filtered.filters).toEqual({ interestRateMax: '11', profitMin: '', depositMax: '40000' });
    expect(names(filtered)).toEqual(['C', 'D']);
    expect(resultsBadges(filtered).filtered).toBe(true);

    const none = resultsPanelReducer(filtered, { kind: 'filter-typed', key: 'profitMin', value: '95000' });
    expect(names(none)).toEqual([]);

    const cleared = resultsPanelReducer(none, { kind: 'filters-cleared' });
    expect(names(cleared)).toEqual(['B', 'C', 'D', 'A']);
    expect(resultsBadges(cleared).filtered).toBe(false);
    expect(cleared.showFilters).toBe(true);
    expect(resultsPanelReducer(cleared, { kind: 'filters-toggled' }).showFilters).toBe(false);
  });

  it('cycles a sort button through descending, ascending and back to the default order', () => {
    const desc = resultsPanelReducer(initialResultsPanelState, { kind: 'sort-pressed', key: 'profit' });
    expect(names(desc)).toEqual(['A', 'D', 'C', 'B']);
    expect(resultsBadges(desc).sorted).toBe(true);
    const asc = resultsPanelReducer(desc, { kind: 'sort-pressed', key: 'profit' });
    expect(names(asc)).toEqual(['B', 'C', 'D', 'A']);
    const back = resultsPanelReducer(asc, { kind: 'sort-pressed', key: 'profit' });
    expect(resultsBadges(back).sorted).toBe(false);
    expect(names(back)).toEqual(['B', 'C', 'D', 'A']);
  });

  it('switches the card layout', () => {
    const compact = resultsPanelReducer(initialResultsPanelState, { kind: 'layout-chosen', compact: true });
    expect(compact.compact).toBe(true);
    expect(resultsPanelReducer(compact, { kind: 'layout-chosen', compact: false }).compact).toBe(false);
  });

  it('picks at most three deals for Compare, ignores a fourth, and lets one go again', () => {
    const three = run([
      { kind: 'compare-toggled', offer: a },
      { kind: 'compare-toggled', offer: b },
      { kind: 'compare-toggled', offer: c },
    ]);
    expect(three.selected).toEqual([a, b, c]);
    const refused = resultsPanelReducer(three, { kind: 'compare-toggled', offer: d });
    expect(refused.selected).toEqual([a, b, c]);

    const dropped = resultsPanelReducer(refused, { kind: 'compare-toggled', offer: b });
    expect(dropped.selected).toEqual([a, c]);
    expect(resultsPanelReducer(dropped, { kind: 'compare-toggled', offer: d }).selected).toEqual([a, c, d]);
  });

  it('opens and closes the compare dialog without losing the picks', () => {
    const open = run([
      { kind: 'compare-toggled', offer: a },
      { kind: 'compare-open-changed', open: true },
    ]);
    expect(open.compareOpen).toBe(true);
    const closed = resultsPanelReducer(open, { kind: 'compare-open-changed', open: false });
    expect(closed).toMatchObject({ compareOpen: false, selected: [a] });
  });

  it('opens the breakdown of one offer and closes it', () => {
    const open = resultsPanelReducer(initialResultsPanelState, { kind: 'details-opened', offer: c });
    expect(open.details).toBe(c);
    expect(resultsPanelReducer(open, { kind: 'details-closed' }).details).toBeNull();
  });
});
