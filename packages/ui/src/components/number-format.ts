/**
 * UK number entry rules shared by every money and count field: only digits, commas and (where
 * allowed) one decimal point can be typed; the value shows thousands separators once the field is left.
 * A whole-pound field that is given pence (typed, or pasted as £250,000.75) rounds them to the pound:
 * the point is never dropped with its digits kept, which would read 250000.75 as 25,000,075.
 */

/** Drops every character the field does not accept and keeps only the first decimal point. */
export function sanitiseNumberInput(text: string, allowDecimal: boolean): string {
  let seenPoint = false;
  let out = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === ',') out += ch;
    else if (ch === '.' && allowDecimal && !seenPoint) {
      seenPoint = true;
      out += ch;
    }
  }
  return out;
}

/** The number a field's text stands for, or null when it holds no digits. */
export function parseUkNumber(text: string): number | null {
  const plain = text.replace(/,/g, '');
  if (!/\d/.test(plain)) return null;
  const value = Number(plain.endsWith('.') ? plain.slice(0, -1) : plain);
  return Number.isFinite(value) ? value : null;
}

/**
 * What a number field keeps while it is being typed in: a whole-pound field keeps one point and the
 * pence after it too, so that they can be rounded rather than read as more pounds.
 */
export function sanitiseNumberFieldText(text: string): string {
  return sanitiseNumberInput(text, true);
}

/** The value a number field's text stands for: whole-pound fields round to the nearest pound. */
export function parseNumberFieldValue(text: string, allowDecimal: boolean): number | null {
  const value = parseUkNumber(text);
  return value === null || allowDecimal ? value : Math.round(value);
}

const wholeFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const decimalFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** The value as shown after leaving the field: en-GB thousands separators, e.g. 1,250,000. */
export function formatUkNumber(value: number | null | undefined, allowDecimal: boolean): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return (allowDecimal ? decimalFormat : wholeFormat).format(value);
}
