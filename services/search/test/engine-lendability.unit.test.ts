import { computeLendabilityScore, lendabilityDealFor } from '../src/engine';
import { development } from './engine-fixtures';

const strongLead = {
  propertiesOwned: '6-10',
  hasViewedProperty: true,
  ownsProperty: true,
  agreedPurchasePrice: true,
};

describe('computeLendabilityScore', () => {
  it('scores a strong deal 100 with no tips', () => {
    const result = computeLendabilityScore(strongLead, {
      ltvPercent: 60,
      loanAmount: 500_000,
      location: 'London',
    });
    expect(result.score).toBe(100);
    expect(result.band).toBe('green');
    expect(result.tips).toEqual([]);
  });

  it.each([
    [65, 25],
    [65.01, 20],
    [70, 20],
    [75, 15],
    [75.5, 5],
  ])('gives %s%% LTV %s points', (ltv, points) => {
    const result = computeLendabilityScore(strongLead, {
      ltvPercent: ltv,
      loanAmount: 500_000,
      location: 'London',
    });
    expect(result.factors.find((f) => f.factor === 'ltv')?.points).toBe(points);
  });

  it.each([
    ['0', 0],
    ['1', 10],
    ['1-2', 10],
    ['2-4', 15],
    ['3-5', 15],
    ['5+', 20],
    ['10+', 20],
  ])('gives %s properties owned %s points', (owned, points) => {
    const result = computeLendabilityScore(
      { propertiesOwned: owned },
      { ltvPercent: 60, loanAmount: 500_000, location: 'London' },
    );
    expect(result.factors.find((f) => f.factor === 'experience')?.points).toBe(points);
  });

  it.each([
    [100_000, 5],
    [150_000, 10],
    [250_000, 15],
    [2_000_000, 15],
    [2_000_001, 10],
  ])('gives a £%s loan %s points', (amount, points) => {
    const result = computeLendabilityScore(strongLead, {
      ltvPercent: 60,
      loanAmount: amount,
      location: 'London',
    });
    expect(result.factors.find((f) => f.factor === 'loanSize')?.points).toBe(points);
  });

  it('gives 10 for London, the South East, the North West and the Midlands, 5 elsewhere', () => {
    const points = (location: string) =>
      computeLendabilityScore(strongLead, { ltvPercent: 60, loanAmount: 500_000, location }).factors.find(
        (f) => f.factor === 'location',
      )?.points;
    expect(['London', 'SouthEast', 'NorthWest', 'Midlands'].map(points)).toEqual([10, 10, 10, 10]);
    expect(['Wales', 'Scotland', 'EastAnglia'].map(points)).toEqual([5, 5, 5]);
  });

  it('gives tips for each weak factor below 70 and colours the score', () => {
    const result = computeLendabilityScore(
      { propertiesOwned: '0' },
      { ltvPercent: 80, loanAmount: 100_000, location: 'Wales' },
    );
    expect(result.score).toBe(15);
    expect(result.band).toBe('red');
    expect(result.tips).toHaveLength(7);
    expect(result.tips[0]).toContain('from 80.0% to 65% or less');
  });

  it('gives no tips at exactly 70 and shows yellow from 50', () => {
    const seventy = computeLendabilityScore(
      { propertiesOwned: '1', hasViewedProperty: true },
      { ltvPercent: 60, loanAmount: 500_000, location: 'London' },
    );
    expect(seventy.score).toBe(70);
    expect(seventy.tips).toEqual([]);
    const sixty = computeLendabilityScore(
      { propertiesOwned: '1' },
      { ltvPercent: 60, loanAmount: 500_000, location: 'London' },
    );
    expect(sixty.band).toBe('yellow');
    expect(sixty.tips.length).toBeGreaterThan(0);
  });

  it('reads the deal from the leading offer, or from the requested loan when there is none', () => {
    const payload = development({ maxLoanRequired: false, netLoanRequired: 1_500_000 });
    expect(lendabilityDealFor('development', payload, [])).toEqual({
      ltvPercent: 50,
      loanAmount: 1_500_000,
      location: 'London',
    });
  });
});
