import {
  formatUkNumber,
  parseNumberFieldValue,
  parseUkNumber,
  sanitiseNumberFieldText,
  sanitiseNumberInput,
} from '../src/components/number-format';

describe('UK number entry', () => {
  it('keeps only digits and commas in a whole-pound field', () => {
    expect(sanitiseNumberInput('£1,2a3.45 ', false)).toBe('1,2345');
  });

  it('keeps a single decimal point where decimals are allowed', () => {
    expect(sanitiseNumberInput('12.5.6', true)).toBe('12.56');
  });

  it('reads text with thousands separators as a number', () => {
    expect(parseUkNumber('1,250,000')).toBe(1250000);
    expect(parseUkNumber('1,250.5')).toBe(1250.5);
    expect(parseUkNumber('12.')).toBe(12);
  });

  it('reads an empty or comma-only field as no value', () => {
    expect(parseUkNumber('')).toBeNull();
    expect(parseUkNumber(',,')).toBeNull();
  });

  it('shows UK thousands separators after leaving the field', () => {
    expect(formatUkNumber(1250000, false)).toBe('1,250,000');
    expect(formatUkNumber(1234.5, true)).toBe('1,234.5');
    expect(formatUkNumber(1234.56, false)).toBe('1,235');
    expect(formatUkNumber(null, false)).toBe('');
  });

  it('rounds pence typed or pasted into a whole-pound field to the pound, never reading them as pounds', () => {
    const wholePounds = (typed: string) => parseNumberFieldValue(sanitiseNumberFieldText(typed), false);
    expect(wholePounds('250000.75')).toBe(250001);
    expect(wholePounds('250000.25')).toBe(250000);
    expect(wholePounds('£250,000.00')).toBe(250000);
    expect(wholePounds(' £ 250 000 ')).toBe(250000);
    expect(wholePounds('250000.')).toBe(250000);
    expect(formatUkNumber(wholePounds('£250,000.75'), false)).toBe('250,001');
  });

  it('keeps the pence where decimals are allowed', () => {
    expect(parseNumberFieldValue(sanitiseNumberFieldText('£1,250.55'), true)).toBe(1250.55);
  });
});
