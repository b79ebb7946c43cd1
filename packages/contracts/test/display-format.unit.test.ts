import {
  DASH,
  formatCurrency,
  formatCurrency2dp,
  formatRatePa,
  formatRatePerAnnum,
  formatRatePm,
  formatInterestAnnual,
  formatInterestPm,
  formatPercent1dp,
  formatPercent2dp,
  formatThousands,
  formatTrueMonthlyCost,
  formatUkDate,
  parseNumber,
} from '../src/display';

describe('parseNumber (numbers may arrive as text)', () => {
  it.each([
    [125000, 125000],
    ['125000', 125000],
    ['125,000', 125000],
    ['£1,250.50', 1250.5],
    [' 0.085 ', 0.085],
    ['-12', -12],
  ])('reads %p as %p', (input, expected) => {
    expect(parseNumber(input)).toBe(expected);
  });

  it.each([
    [undefined],
    [null],
    [''],
    ['abc'],
    ['12abc'],
    [NaN],
    [Infinity],
    [-Infinity],
    ['Infinity'],
    [{}],
    [true],
  ])('treats %p as empty', (input) => {
    expect(parseNumber(input)).toBeNull();
  });
});

describe('currency', () => {
  it('formats whole pounds in en-GB', () => {
    expect(formatCurrency(1234567.89)).toBe('£1,234,568');
    expect(formatCurrency('250000')).toBe('£250,000');
    expect(formatCurrency(0)).toBe('£0');
  });

  it('shows a dash for a missing, non-numeric or infinite amount', () => {
    expect(formatCurrency(undefined)).toBe(DASH);
    expect(formatCurrency('n/a')).toBe(DASH);
    expect(formatCurrency(Infinity)).toBe(DASH);
  });

  it('clamps negative amounts to £0', () => {
    expect(formatCurrency(-5000)).toBe('£0');
    expect(formatCurrency2dp(-1)).toBe('£0.00');
  });

  it('shows pence for the DIP monthly payment', () => {
    expect(formatCurrency2dp(3385.4166)).toBe('£3,385.42');
  });

  it('adds thousands separators to a number input after the field is left', () => {
    expect(formatThousands('1250000')).toBe('1,250,000');
    expect(formatThousands('12.5')).toBe('12.5');
    expect(formatThousands('x')).toBe('');
  });
});

describe('interest', () => {
  it('shows the annual fraction as a monthly percentage to 2 dp', () => {
    expect(formatInterestPm(0.102)).toBe('0.85% pm');
    expect(formatInterestPm('0.12')).toBe('1.00% pm');
  });

  it('clamps to 0.1%-50% a year before converting', () => {
    expect(formatInterestPm(0)).toBe('0.01% pm');
    expect(formatInterestPm(3)).toBe('4.17% pm');
  });

  it('shows a dash for an invalid rate', () => {
    expect(formatInterestPm(null)).toBe(DASH);
    expect(formatInterestAnnual('abc')).toBe(DASH);
  });

  it('shows the annual rate for commercial cards', () => {
    expect(formatInterestAnnual(0.0625)).toBe('6.25%');
  });

  it("labels a DIP's rate per annum with the monthly figure a results card shows beside it", () => {
    expect(formatRatePerAnnum(0.1368)).toBe('13.68% pa (1.14% pm)');
    expect(formatRatePerAnnum(0.1368)).toContain(formatInterestPm(0.1368));
    expect(formatRatePerAnnum('0.0625')).toBe('6.25% pa (0.52% pm)');
    expect(formatRatePerAnnum(undefined)).toBe(DASH);
    expect(formatRatePa(0.1125)).toBe('11.25% pa');
    expect(formatRatePm(0.1125)).toBe('0.94% pm');
  });
});

describe('true monthly cost and percentages', () => {
  it('shows TMC × 100 to 2 dp and "Contact for TMC" at zero', () => {
    expect(formatTrueMonthlyCost(0.0115)).toBe('1.15%');
    expect(formatTrueMonthlyCost('0.00945')).toBe('0.95%');
    expect(formatTrueMonthlyCost(0)).toBe('Contact for TMC');
    expect(formatTrueMonthlyCost(undefined)).toBe(DASH);
  });

  it('shows LTV and fee percentages to 1 dp, ROCE to 2 dp', () => {
    expect(formatPercent1dp(69.96)).toBe('70.0%');
    expect(formatPercent1dp('1.75')).toBe('1.8%');
    expect(formatPercent2dp(25.456)).toBe('25.46%');
    expect(formatPercent1dp(NaN)).toBe(DASH);
  });
});

describe('formatUkDate: the one en-GB date helper', () => {
  it('writes dates in UK time whatever the machine, in the three styles', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
    const summerMidnight = '2026-06-30T23:30:00.000Z';
    expect(formatUkDate(summerMidnight)).toBe('01/07/2026');
    expect(formatUkDate(summerMidnight, 'long')).toBe('1 July 2026');
    expect(formatUkDate('2026-11-26T10:05:00.000Z', 'long-time')).toBe('26 November 2026 at 10:05');
  });

  it('reads Date objects, epoch milliseconds (also as text) and shows the dash for nothing usable', () => {
    const ms = Date.UTC(2026, 10, 26, 12);
    expect(formatUkDate(new Date(ms))).toBe('26/11/2026');
    expect(formatUkDate(ms, 'long')).toBe('26 November 2026');
    expect(formatUkDate(String(ms), 'long')).toBe('26 November 2026');
    for (const nothing of [null, undefined, '', 'not a date', {}]) expect(formatUkDate(nothing)).toBe(DASH);
  });
});
