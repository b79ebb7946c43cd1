import {
  type DipSnapshot,
  LOAN_TYPE_LABELS,
  type LoanOffer,
  type LoanType,
  coerceNumericText,
  dipSnapshotSchema,
  labelOf,
} from '@lsp/contracts';

export interface Borrower {
  name: string;
  email: string;
}

const PRODUCT_TYPES: Record<LoanType, string> = {
  development: 'Development Finance',
  bridging: 'Bridging Loan',
  commercial: 'Commercial Mortgage',
};

function amount(value: unknown): number | null {
  const n = coerceNumericText(value);
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 500) : null;
}

/**
 * What the DIP says, built once from the offer the search service computed, the saved search form and
 * the borrower. Every view and the PDF are drawn from this alone (see dipSnapshotSchema).
 * Business-purpose property finance is not regulated by the FCA, so `regulated` is false for every
 * product on the panel (a regulated product would need its own disclosures).
 */
/**
 * Whether the property is owner occupied, as the search knows it: the commercial form's answer (a
 * boolean, or 'true'/'false' as a form may send it; unanswered is the search's own default, No).
 * Bridging and development searches do not ask: null, shown as '—'.
 */
export function ownerOccupiedIn(loanType: LoanType, searchData: Record<string, unknown>): boolean | null {
  const answer = searchData.isOwnerOccupied;
  if (typeof answer === 'boolean') return answer;
  if (typeof answer === 'string' && /^(true|yes)$/i.test(answer.trim())) return true;
  if (typeof answer === 'string' && /^(false|no)$/i.test(answer.trim())) return false;
  return loanType === 'commercial' ? false : null;
}

export function buildSnapshot(
  loanType: LoanType,
  offer: LoanOffer,
  searchData: Record<string, unknown>,
  borrower: Borrower,
  promoEligibleZeroBrokerFee: boolean,
): DipSnapshot {
  const projectName = text(searchData.projectName);
  const locationCode = text(searchData.propertyLocation);
  const location = locationCode ? labelOf(locationCode) : 'United Kingdom';
  const address = text(searchData.propertyAddress);
  const propertyClass = text(searchData.propertyClass) ?? text(searchData.currentPropertyType);
  const purchasePrice = offer.PurchasePrice ?? amount(searchData.purchasePrice) ?? 0;
  const buildCost = offer.TotalBuildCost ?? offer.BuildCost ?? amount(searchData.buildCost) ?? 0;
  const currentValue =
    offer.PropertyValue ??
    amount(searchData.currentValue) ??
    amount(searchData.purchasePrice) ??
    purchasePrice;
  const entity = text(searchData.borrowingEntityType) ?? 'Individual';
  const ownerOccupied = ownerOccupiedIn(loanType, searchData);
  return dipSnapshotSchema.parse({
    loanType,
    lenderName: offer.LenderName,
    lenderId: offer.LenderId,
    productId: offer.ProductId,
    productName: offer.ProductName,
    projectName,
    propertyAddress: address ?? projectName ?? location,
    borrower: { name: borrower.name, email: borrower.email, salutation: null, entity: labelOf(entity) },
    property: {
      addressLine1: address ?? projectName ?? location,
      addressLine2: null,
      city: null,
      county: null,
      postcode: null,
      location,
      propertyType: propertyClass ? labelOf(propertyClass) : LOAN_TYPE_LABELS[loanType],
      currentValue,
      ownerOccupied,
    },
    loan: {
      productType: PRODUCT_TYPES[loanType],
      regulated: false,
      netLoan: offer.NetLoan,
      grossLoan: offer.GrossLoan,
      fees: offer.ArrangementFee + offer.LenderExitFee + offer.OtherLenderCosts,
      interestRate: offer.InterestRate,
      termMonths: offer.LoanTerm,
      ltvPercent: offer.LoanToValue,
      monthlyPayment: offer.MonthlyPayment,
      arrangementFeePercent: offer.ArrangementFeePercOfValue,
      mortgageTermYears: offer.MortgageTerm ?? null,
    },
    financial: {
      depositRequired: offer.DepositRequired,
      purchasePrice,
      projectCost: offer.TotalProjectCost ?? purchasePrice + buildCost,
      buildCost,
      gdv: amount(searchData.gdv),
    },
    promoEligibleZeroBrokerFee,
    searchData,
    offer,
  });
}
