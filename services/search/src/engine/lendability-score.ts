import {
  LENDABILITY_TIPS_BELOW,
  lendabilityBand,
  type LendabilityBand,
  type LoanOffer,
  type LoanType,
  type PropertiesOwned,
  type SearchPayloadByType,
} from '@lsp/contracts';
import { commercialPropertyValue } from './commercial';

export interface LendabilityLead {
  propertiesOwned?: PropertiesOwned | string | null;
  hasViewedProperty?: boolean;
  ownsProperty?: boolean;
  agreedPurchasePrice?: boolean;
}

export interface LendabilityDeal {
  /** Loan to value as a percentage (70 = 70%); null when unknown. */
  ltvPercent: number | null;
  loanAmount: number | null;
  location: string;
}

export interface LendabilityFactor {
  factor: 'ltv' | 'experience' | 'loanSize' | 'location' | 'viewedProperty' | 'ownsProperty' | 'agreedPrice';
  points: number;
  max: number;
}

export interface LendabilityScore {
  score: number;
  band: LendabilityBand;
  factors: LendabilityFactor[];
  /** Advice on raising the score; given only when the score is below 70. */
  tips: string[];
}

const PRIME_LOCATIONS = new Set(['London', 'SouthEast', 'NorthWest', 'Midlands']);

/**
 * Both propertiesOwned variants map onto the spec's bands 1-2 (10), 3-5 (15) and 6+ (20): the lead
 * dialog's '2-4' mostly falls in 3-5 and its '5+' ("Experienced Investor") is treated as 6+.
 */
function experiencePoints(owned: string | null | undefined): number {
  switch (owned) {
    case '1':
    case '1-2':
      return 10;
    case '2-4':
    case '3-5':
      return 15;
    case '5+':
    case '6-10':
    case '10+':
      return 20;
    default:
      return 0;
  }
}

function ltvPoints(ltv: number | null): number {
  if (ltv === null) return 5;
  if (ltv <= 65) return 25;
  if (ltv <= 70) return 20;
  if (ltv <= 75) return 15;
  return 5;
}

function loanSizePoints(amount: number | null): number {
  if (amount === null) return 10;
  if (amount >= 250_000 && amount <= 2_000_000) return 15;
  if (amount < 150_000) return 5;
  return 10;
}

/** The Lendability Score (max 100), with tips when it is below 70. */
export function computeLendabilityScore(lead: LendabilityLead, deal: LendabilityDeal): LendabilityScore {
  const factors: LendabilityFactor[] = [
    { factor: 'ltv', points: ltvPoints(deal.ltvPercent), max: 25 },
    { factor: 'experience', points: experiencePoints(lead.propertiesOwned), max: 20 },
    { factor: 'loanSize', points: loanSizePoints(deal.loanAmount), max: 15 },
    { factor: 'location', points: PRIME_LOCATIONS.has(deal.location) ? 10 : 5, max: 10 },
    { factor: 'viewedProperty', points: lead.hasViewedProperty ? 10 : 0, max: 10 },
    { factor: 'ownsProperty', points: lead.ownsProperty ? 10 : 0, max: 10 },
    { factor: 'agreedPrice', points: lead.agreedPurchasePrice ? 10 : 0, max: 10 },
  ];
  const score = factors.reduce((sum, f) => sum + f.points, 0);
  const tips: string[] = [];
  if (score < LENDABILITY_TIPS_BELOW) {
    for (const f of factors) {
      if (f.points === f.max) continue;
      tips.push(tipFor(f, deal));
    }
  }
  return { score, band: lendabilityBand(score), factors, tips };
}

function tipFor(f: LendabilityFactor, deal: LendabilityDeal): string {
  switch (f.factor) {
    case 'ltv':
      return deal.ltvPercent === null
        ? 'Give the property value so lenders can see your loan to value; 65% or less scores best'
        : `Bring the loan to value from ${deal.ltvPercent.toFixed(1)}% to 65% or less with a larger deposit or a smaller loan`;
    case 'experience':
      return 'Lenders favour experience: mention past projects, or bring in an experienced partner';
    case 'loanSize':
      return 'Loans between £250,000 and £2,000,000 have the widest lender appetite';
    case 'location':
      return 'Outside London, the South East, the North West and the Midlands fewer lenders compete: allow more time for offers';
    case 'viewedProperty':
      return 'View the property before you apply';
    case 'ownsProperty':
      return 'Owning the property (or having it under contract) strengthens the application';
    case 'agreedPrice':
      return 'Agree the purchase price with the seller';
  }
}

/**
 * The deal as the score sees it: the leading offer's LTV and gross loan when there are offers, else
 * the requested loan against the value the borrower gave.
 */
export function lendabilityDealFor<T extends LoanType>(
  loanType: T,
  payload: SearchPayloadByType[T],
  offers: readonly LoanOffer[],
): LendabilityDeal {
  const lead = offers.length ? offers.reduce((best, o) => (o.NetLoan > best.NetLoan ? o : best)) : null;
  if (lead)
    return { ltvPercent: lead.LoanToValue, loanAmount: lead.GrossLoan, location: payload.propertyLocation };
  const value =
    loanType === 'development'
      ? (payload as SearchPayloadByType['development']).gdv
      : loanType === 'commercial'
        ? commercialPropertyValue(payload as SearchPayloadByType['commercial'])
        : ((payload as SearchPayloadByType['bridging']).currentValue ??
          (payload as SearchPayloadByType['bridging']).purchasePrice ??
          0);
  const loan = payload.netLoanRequired ?? null;
  return {
    ltvPercent: loan !== null && value > 0 ? (loan / value) * 100 : null,
    loanAmount: loan,
    location: payload.propertyLocation,
  };
}
