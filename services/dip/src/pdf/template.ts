import {
  type DipSnapshot,
  formatCurrency,
  formatCurrency2dp,
  formatPercent1dp,
  formatRatePa,
  formatRatePm,
  formatUkDate,
} from '@lsp/contracts';
import { escapeHtml } from '@lsp/service-kit';

/** What the PDF is drawn from: the DIP's frozen snapshot and its dates. */
export interface PdfDip {
  id: string;
  ownerUserId: string;
  version: number;
  quoteCode: string;
  snapshot: DipSnapshot;
  createdAt: string;
  expiresAt: string;
  validityHours: number;
}

/** The spec's disclaimer (Online DIP page). */
export const DIP_DISCLAIMER =
  'The terms in this Decision in Principle are indicative and non-binding. They are subject to underwriting, ' +
  'valuation, legal due diligence and lender approval, and may change or be withdrawn. This is not an offer of ' +
  'finance.';

/** Dates in UK time through the one en-GB helper the pages use too. */
export const formatDate = (iso: string) => formatUkDate(iso, 'long');
export const formatDateTime = (iso: string) => formatUkDate(iso, 'long-time');

type Row = [label: string, value: string];

function section(title: string, rows: Row[]): string {
  const body = rows
    .map(
      ([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<section><h2>${escapeHtml(title)}</h2><table>${body}</table></section>`;
}

const yesNo = (value: boolean | null) => (value === null ? 'Not stated' : value ? 'Yes' : 'No');

/** The DIP as a lender's letter: A4, real text (selectable, searchable), fonts the machine has. */
export function renderDipHtml(dip: PdfDip): string {
  const s = dip.snapshot;
  const address = [
    s.property.addressLine1,
    s.property.addressLine2,
    s.property.city,
    s.property.county,
    s.property.postcode,
  ]
    .filter(Boolean)
    .join(', ');
  const borrower = section('Borrower', [
    ['Name', s.borrower.name || 'Client'],
    ['Borrowing entity', s.borrower.entity],
    ['Email', s.borrower.email],
  ]);
  const property = section('Property', [
    ['Address', address],
    ['Location', s.property.location],
    ['Property type', s.property.propertyType],
    ['Current value', formatCurrency(s.property.currentValue)],
    ['Owner occupied', yesNo(s.property.ownerOccupied)],
  ]);
  const loanRows: Row[] = [
    ['Lender', s.lenderName],
    ['Product', `${s.productName} (${s.loan.productType})`],
    ['Net loan', formatCurrency(s.loan.netLoan)],
    ['Gross loan', formatCurrency(s.loan.grossLoan)],
    // Per annum, then the monthly figure a results card shows ('% pm'), so the two can be compared.
    ['Interest rate', formatRatePa(s.loan.interestRate)],
    ['Monthly rate', formatRatePm(s.loan.interestRate)],
    ['Term', `${s.loan.termMonths} months`],
    ['Loan to value', formatPercent1dp(s.loan.ltvPercent)],
    ['Arrangement fee', formatPercent1dp(s.loan.arrangementFeePercent)],
    ['Lender fees', formatCurrency(s.loan.fees)],
  ];
  if (s.loan.monthlyPayment > 0) loanRows.push(['Monthly payment', formatCurrency2dp(s.loan.monthlyPayment)]);
  if (s.loan.mortgageTermYears) loanRows.push(['Mortgage term', `${s.loan.mortgageTermYears} years`]);
  const financialRows: Row[] = [
    ['Purchase price', formatCurrency(s.financial.purchasePrice)],
    ['Build cost', formatCurrency(s.financial.buildCost)],
    ['Total project cost', formatCurrency(s.financial.projectCost)],
    ['Deposit required', formatCurrency(s.financial.depositRequired)],
  ];
  if (s.financial.gdv !== null)
    financialRows.push(['Gross development value', formatCurrency(s.financial.gdv)]);
  const promo = s.promoEligibleZeroBrokerFee
    ? '<p class="promo"><strong>Special offer:</strong> zero broker fees for 6 months.</p>'
    : '';
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Decision in Principle ${escapeHtml(dip.quoteCode)}</title>
<style>
  @page { size: A4; margin: 18mm 16mm 20mm; }
  * { box-sizing: border-box; }
  body { font-family: 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif; color: #1b2430; font-size: 10.5pt; line-height: 1.4; margin: 0; }
  header { display: flex; justify-content: space-between; align-items: flex-end; border-bottom: 3px solid #0b4f8a; padding-bottom: 8px; margin-bottom: 14px; }
  h1 { font-size: 21pt; margin: 0; color: #0b4f8a; letter-spacing: 0.2px; }
  .brand { font-size: 9pt; color: #4b5868; text-align: right; }
  .meta { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-bottom: 14px; }
  .meta div { background: #f1f5f9; border-radius: 4px; padding: 6px 8px; }
  .meta span { display: block; font-size: 8pt; text-transform: uppercase; color: #4b5868; letter-spacing: 0.4px; }
  .meta strong { font-size: 11pt; }
  .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px 16px; }
  section { break-inside: avoid; }
  h2 { font-size: 11.5pt; color: #0b4f8a; border-bottom: 1px solid #c9d4e0; padding-bottom: 3px; margin: 0 0 4px; }
  table { width: 100%; border-collapse: collapse; }
  th { text-align: left; font-weight: normal; color: #4b5868; padding: 3px 6px 3px 0; width: 48%; vertical-align: top; }
  td { padding: 3px 0; font-weight: bold; vertical-align: top; }
  .notice { margin-top: 16px; border: 1px solid #c9d4e0; border-left: 4px solid #b7791f; padding: 8px 10px; background: #fffaf0; break-inside: avoid; }
  .notice h2 { border: 0; color: #7a4d0b; }
  .promo { margin: 10px 0 0; padding: 6px 10px; background: #ecfdf3; border: 1px solid #9ad5b0; border-radius: 4px; }
  footer { margin-top: 14px; font-size: 8pt; color: #4b5868; }
</style></head>
<body>
  <header>
    <div><h1>Decision in Principle</h1><div>Indicative terms for ${escapeHtml(s.borrower.name || 'Client')}</div></div>
    <div class="brand">LoanSearch UK<br>Quote code ${escapeHtml(dip.quoteCode)}</div>
  </header>
  <div class="meta">
    <div><span>Quote code</span><strong>${escapeHtml(dip.quoteCode)}</strong></div>
    <div><span>Generated on</span><strong>${escapeHtml(formatDate(dip.createdAt))}</strong></div>
    <div><span>Valid until</span><strong>${escapeHtml(formatDateTime(dip.expiresAt))}</strong></div>
  </div>
  <div class="grid">
    ${borrower}
    ${property}
    ${section('Loan Details', loanRows)}
    ${section('Financial Summary', financialRows)}
  </div>
  ${promo}
  <div class="notice">
    <h2>Important Notice</h2>
    <p>${escapeHtml(DIP_DISCLAIMER)}</p>
    <p>${s.loan.regulated ? 'This is a regulated product.' : 'This is an unregulated, business-purpose loan.'} Your property may be at risk if you do not keep up repayments on a loan secured on it.</p>
  </div>
  <footer>Decision in Principle ${escapeHtml(dip.quoteCode)}, version ${dip.version}. Figures in pounds sterling. Valid for ${dip.validityHours} hours from issue unless extended by its owner.</footer>
</body></html>`;
}
