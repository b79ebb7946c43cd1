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
  const ownerOccupied = typeof searchData.isOwnerOccupied === 'boolean' ? searchData.isOwnerOccupied : null;
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
