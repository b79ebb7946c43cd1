import { bestRateOf, searchPanel } from '../src/engine';
import { loadDefaultPanel, type Panel } from '../src/panel';
import { bridging, bridgingProduct, commercial, development } from './engine-fixtures';

const panel = loadDefaultPanel();

describe('searchPanel', () => {
  it('returns offers best net loan first, each saying why it qualifies', () => {
    const result = searchPanel('development', development({ gdv: 4_000_000, buildCost: 1_500_000 }), panel);
    expect(result.offers.length).toBeGreaterThan(5);
    const nets = result.offers.map((o) => o.NetLoan);
    expect(nets).toEqual([...nets].sort((a, b) => b - a));
    for (const offer of result.offers) expect(offer.qualifiesBecause.length).toBeGreaterThan(0);
  });

  it('counts every lender: offers, declines with a reason, and lenders without the product', () => {
    const result = searchPanel('bridging', bridging({ propertyLocation: 'NorthernIreland' }), panel);
    const offering = new Set(result.offers.map((o) => o.LenderId));
    expect(offering.size + result.declined.length + result.lendersWithoutProduct).toBe(panel.lenders.length);
    expect(result.declined.length).toBeGreaterThan(0);
    for (const d of result.declined) expect(d.reason.length).toBeGreaterThan(5);
    expect(result.declined.some((d) => d.reason.includes('Does not lend in Northern Ireland'))).toBe(true);
  });

  it('lists one decline per lender with the reason of each of its products', () => {
    const small: Panel = {
      kind: 'lender-panel',
      version: 't1',
      effectiveFrom: '2025-01-01',
      lenders: [
        {
          id: 'two-products',
          name: 'Two Products',
          kind: 'specialist lender',
          regions: ['London'],
          products: [
            bridgingProduct({
              id: 'a',
              name: 'A',
              maxLoan: 50_000,
              maxLtvBands: [{ upToLoan: 50_000, maxRatio: 0.75 }],
            }),
            bridgingProduct({ id: 'b', name: 'B', useCases: ['bridgingRefurbishment'] }),
          ],
        },
      ],
    };
    const result = searchPanel(
      'bridging',
      bridging({ maxLoanRequired: false, netLoanRequired: 100_000 }),
      small,
    );
    expect(result.offers).toHaveLength(0);
    expect(result.declined).toEqual([
      {
        lender: 'Two Products',
        lenderId: 'two-products',
        reason:
          'A: The £113,636 gross loan is above its £50,000 maximum; B: Does not offer purchase or refinance bridges',
      },
    ]);
  });

  it('says a max loan was limited by the product maximum when that binds', () => {
    const capped = bridgingProduct({ maxLoan: 50_000, maxLtvBands: [{ upToLoan: 50_000, maxRatio: 0.75 }] });
    const small: Panel = {
      kind: 'lender-panel',
      version: 't1',
      effectiveFrom: '2025-01-01',
      lenders: [
        { id: 'capped', name: 'Capped', kind: 'specialist lender', regions: ['London'], products: [capped] },
      ],
    };
    const [offer] = searchPanel('bridging', bridging(), small).offers;
    expect(offer.GrossLoan).toBe(50_000);
    expect(offer.qualifiesBecause.at(-1)).toBe('Sized to its maximum, limited by its £50,000 maximum loan');
  });

  it('finds commercial offers for the form defaults and reports the best rate', () => {
    const result = searchPanel(
      'commercial',
      commercial({
        mortgageInterestType: 'Fixed',
        fixedRateTerm: 'FiveYear',
        mortgageTerm: 25,
        grossMonthlyRentalIncome: 2000,
        currentValue: 250_000,
      }),
      panel,
    );
    expect(result.offers.length).toBeGreaterThan(0);
    expect(bestRateOf(result.offers)).toBe(Math.min(...result.offers.map((o) => o.InterestRate)));
    expect(bestRateOf([])).toBeNull();
  });

  it('reports the panel version it searched', () => {
    expect(searchPanel('bridging', bridging(), panel).panelVersion).toBe(panel.version);
  });
});
