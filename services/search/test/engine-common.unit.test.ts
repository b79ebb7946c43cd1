import { largestWithinBands, rateBandFor, settleRate, sizeBandFor } from '../src/engine';

const bands = [
  { upToLoan: 1_000_000, maxRatio: 0.75 },
  { upToLoan: 2_500_000, maxRatio: 0.7 },
  { upToLoan: 10_000_000, maxRatio: 0.6 },
];

describe('band lookups', () => {
  it('finds the size band covering a loan, and the last band beyond them all', () => {
    expect(sizeBandFor(bands, 1_000_000).maxRatio).toBe(0.75);
    expect(sizeBandFor(bands, 1_000_001).maxRatio).toBe(0.7);
    expect(sizeBandFor(bands, 50_000_000).maxRatio).toBe(0.6);
  });

  it('finds the rate band covering a ratio', () => {
    const card = [
      { maxRatio: 0.5, ratePerMonth: 0.0049 },
      { maxRatio: 0.65, ratePerMonth: 0.0064 },
    ];
    expect(rateBandFor(card, 0.5).ratePerMonth).toBe(0.0049);
    expect(rateBandFor(card, 0.5001).ratePerMonth).toBe(0.0064);
    expect(rateBandFor(card, 0.9).ratePerMonth).toBe(0.0064);
  });
});

describe('largestWithinBands', () => {
  const capAt = (value: number) => (band: { maxRatio: number }) => band.maxRatio * value;

  it('stops at a band ceiling when the next band cuts the LTV below it', () => {
    // 70% of £1.4m = £980k fits band 1 (75% = £1.05m is capped at the £1m ceiling); band 2 gives £980k.
    expect(largestWithinBands(bands, capAt(1_400_000), 10_000_000, (limit) => limit)).toBe(1_000_000);
  });

  it('uses a higher band when its cap still beats the lower ceiling', () => {
    expect(largestWithinBands(bands, capAt(3_000_000), 10_000_000, (limit) => limit)).toBe(2_100_000);
  });

  it('respects the product maximum and a deal-side limit', () => {
    expect(largestWithinBands(bands, capAt(3_000_000), 1_500_000, (limit) => limit)).toBe(1_500_000);
    expect(largestWithinBands(bands, capAt(3_000_000), 10_000_000, (limit) => Math.min(limit, 400_000))).toBe(
      400_000,
    );
  });

  it('returns null when nothing can be lent', () => {
    expect(largestWithinBands(bands, capAt(0), 10_000_000, (limit) => limit)).toBeNull();
  });
});

describe('settleRate', () => {
  it('re-prices until the rate card agrees with the sized result', () => {
    const sizes: number[] = [];
    const { rate, result } = settleRate(
      0.01,
      (r) => {
        sizes.push(r);
        return 100 / (1 - r * 12);
      },
      (gross) => (gross > 112 ? 0.009 : 0.008),
    );
    expect(sizes).toEqual([0.01, 0.009]);
    expect(rate).toBe(0.009);
    expect(result).toBeCloseTo(100 / (1 - 0.108), 10);
  });

  it('keeps the higher rate when pricing oscillates between two bands', () => {
    const { rate } = settleRate(
      0.01,
      (r) => r,
      (r) => (r >= 0.01 ? 0.008 : 0.01),
    );
    expect(rate).toBe(0.01);
  });
});
