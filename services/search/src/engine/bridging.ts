import type { BridgingSearch } from '@lsp/contracts';
import type { BridgingProduct } from '../panel/schema';
import {
  decline,
  declineOutsideLoanLimits,
  isClose,
  largestWithinBands,
  offered,
  pct,
  pounds,
  rateBandFor,
  screenDeal,
  settleRate,
  sizeBandFor,
  spaced,
  termNearMaximum,
  termWithinRange,
  type LenderInfo,
  type SizingResult,
} from './common';

type SecurityKind = 'developerExit' | 'refurbishment' | 'land' | 'property';

/** What a bridge lends against, read from the payload by use case. */
export interface BridgingSecurity {
  kind: SecurityKind;
  /** Value of the property or land today: the lower of price and valuation when purchasing. */
  dayOneValue: number;
  /** Completed or refurbished value; the day-one value when none is given. */
  endValue: number;
  /** Works the loan is to fund (refurbishment). */
  works: number;
  /** What the borrower pays out besides the loan: price and costs when buying, works, land costs. */
  costBase: number;
}

export function bridgingSecurity(payload: BridgingSearch): BridgingSecurity {
  const buying = payload.ownOrPurchase === 'Purchasing';
  const price = payload.purchasePrice ?? 0;
  const valuation = payload.currentValue ?? 0;
  const dayOneValue = buying
    ? valuation > 0 && price > 0
      ? Math.min(price, valuation)
      : price || valuation
    : valuation || price;
  const kind: SecurityKind =
    payload.bridgingType === 'bridgingDeveloperExit'
      ? 'developerExit'
      : payload.bridgingType === 'bridgingRefurbishment'
        ? 'refurbishment'
        : payload.bridgingType === 'bridgingPreconstruction' || payload.landOrProperty === 'Land'
          ? 'land'
          : 'property';
  const works = kind === 'refurbishment' ? (payload.buildCosts ?? payload.estimatedSpending ?? 0) : 0;
  const landCosts = kind === 'land' ? (payload.landTotalOtherCosts ?? 0) : 0;
  const endValue = payload.estimatedEndValueOfProperty ?? 0;
  return {
    kind,
    dayOneValue,
    endValue: kind === 'developerExit' ? endValue : endValue || dayOneValue,
    works,
    costBase: (buying ? price + (payload.purchaseCosts ?? 0) : 0) + works + landCosts,
  };
}

/**
 * How the loan's interest is taken. Retained: deducted up front for the whole term. Rolled: added to
 * the balance monthly and repaid at the end, so the day-one advance compounds to the gross loan.
 * Serviced: paid monthly by the borrower. In every case the arrangement fee and the lender's costs come
 * out of the advance: net = gross − fee − retained interest − costs.
 */
export function bridgingFinance(product: BridgingProduct, monthlyRate: number, termMonths: number) {
  const { arrangementFeePct: f, minArrangementFee: minFee, otherCosts } = product.fees;
  const months = Math.max(termMonths, product.minInterestMonths);
  const compound = (1 + monthlyRate) ** months;
  const fee = (gross: number) => Math.max(f * gross, minFee);
  const interest = (gross: number) => {
    if (product.interestTreatment === 'retained') return gross * monthlyRate * months;
    if (product.interestTreatment === 'rolled') return gross - gross / compound;
    return gross * monthlyRate * months;
  };
  const netForGross = (gross: number) => {
    if (product.interestTreatment === 'retained') return gross - fee(gross) - interest(gross) - otherCosts;
    if (product.interestTreatment === 'rolled') return gross / compound - fee(gross) - otherCosts;
    return gross - fee(gross) - otherCosts;
  };
  /** gross = (net + costs) ÷ (1 − r × n − fee%), or its rolled and serviced equivalents. */
  const grossForNet = (net: number) => {
    const need = net + otherCosts;
    let byPct: number;
    let byMin: number;
    if (product.interestTreatment === 'retained') {
      const keep = 1 - monthlyRate * months;
      byPct = keep - f > 0 ? need / (keep - f) : Infinity;
      byMin = keep > 0 ? (need + minFee) / keep : Infinity;
    } else if (product.interestTreatment === 'rolled') {
      byPct = 1 - f * compound > 0 ? (need * compound) / (1 - f * compound) : Infinity;
      byMin = (need + minFee) * compound;
    } else {
      byPct = need / (1 - f);
      byMin = need + minFee;
    }
    // The fee is the larger of the percentage and the minimum, so the gross is the larger solution.
    return Math.max(byPct, byMin);
  };
  return { fee, interest, netForGross, grossForNet, months };
}

export function sizeBridgingLoan(
  payload: BridgingSearch,
  product: BridgingProduct,
  lender: LenderInfo,
): SizingResult {
  if (!product.useCases.includes(payload.bridgingType))
    return decline(
      `Does not offer ${spaced(payload.bridgingType.replace('bridging', '')).toLowerCase()} bridges`,
    );
  const screened = screenDeal(lender, product, {
    location: payload.propertyLocation,
    propertyClass: payload.propertyClass,
    refusedClassReason: `Does not lend on ${spaced(payload.propertyClass)} property`,
    termMonths: payload.loanTerm,
  });
  if (screened) return screened;

  const security = bridgingSecurity(payload);
  const classCap = product.maxLtvByClass[payload.propertyClass] ?? 1;
  const qualifiesBecause = [
    `Lends in ${spaced(payload.propertyLocation)} on ${spaced(payload.propertyClass)} property`,
  ];
  let capFor: (band: { maxRatio: number }) => number;
  let valueBasis: number;
  let capLabel: (gross: number) => string;
  let ratePremium = 0;
  let exitFeePct = product.fees.exitFeePct;

  if (security.kind === 'developerExit') {
    if (product.developerExitMaxLtv === undefined) return decline('Does not offer developer exit bridges');
    if (security.endValue <= 0) return decline('No completed value of the units was given to lend against');
    const exitCap = product.developerExitMaxLtv;
    valueBasis = security.endValue;
    capFor = (band) => Math.min(band.maxRatio, classCap, exitCap) * valueBasis;
    capLabel = (gross) =>
      `${pct(capFor(sizeBandFor(product.maxLtvBands, gross)) / valueBasis, 0)} of the completed units' value`;
    qualifiesBecause.push(`Refinances ${payload.refinancedUnits} completed unit(s) against their end value`);
  } else if (security.kind === 'refurbishment') {
    const refurb = product.refurbishment;
    if (!refurb) return decline('Does not offer refurbishment bridges');
    if (!refurb.levels.includes(payload.refurbishmentLevel))
      return decline(
        `Does not fund ${payload.refurbishmentLevel.toLowerCase()} refurbishment (accepts ${refurb.levels.join(', ').toLowerCase()})`,
      );
    if (security.dayOneValue <= 0) return decline('No property value was given to lend against');
    const heavyCap = payload.refurbishmentLevel === 'Heavy' ? refurb.heavyMaxLtv : 1;
    valueBasis = security.endValue;
    // Day-one advance against today's value plus a share of the works, all within a cap on end value.
    capFor = (band) =>
      Math.min(
        Math.min(band.maxRatio, classCap, heavyCap) * security.dayOneValue +
          refurb.worksFunding * security.works,
        refurb.maxLtgdv * security.endValue,
      );
    capLabel = () =>
      `a ${pct(Math.min(classCap, heavyCap, product.maxLtvBands[0].maxRatio), 0)} day-one advance, ${pct(refurb.worksFunding, 0)} of works and ${pct(refurb.maxLtgdv, 0)} of end value`;
    ratePremium = refurb.ratePremiumPerMonth[payload.refurbishmentLevel] ?? 0;
    if (payload.refurbishmentLevel === 'Heavy') exitFeePct = refurb.heavyExitFeePct;
    qualifiesBecause.push(`Funds ${payload.refurbishmentLevel.toLowerCase()} refurbishment`);
  } else if (security.kind === 'land') {
    const planningCap = product.landLtvByPlanning[payload.planningPermissionType];
    if (planningCap === undefined)
      return decline(`Does not lend on land with ${spaced(payload.planningPermissionType).toLowerCase()}`);
    if (security.dayOneValue <= 0) return decline('No land value was given to lend against');
    valueBasis = security.dayOneValue;
    capFor = (band) => Math.min(band.maxRatio, classCap, planningCap) * valueBasis;
    capLabel = (gross) =>
      `${pct(capFor(sizeBandFor(product.maxLtvBands, gross)) / valueBasis, 0)} of the land value`;
    qualifiesBecause.push(`Lends on land with ${spaced(payload.planningPermissionType).toLowerCase()}`);
  } else {
    if (security.dayOneValue <= 0) return decline('No property value was given to lend against');
    valueBasis = security.dayOneValue;
    const priceCap =
      payload.ownOrPurchase === 'Purchasing' && payload.purchasePrice
        ? product.maxPurchasePriceLtv * payload.purchasePrice
        : Infinity;
    capFor = (band) => Math.min(Math.min(band.maxRatio, classCap) * valueBasis, priceCap);
    capLabel = (gross) =>
      `${pct(capFor(sizeBandFor(product.maxLtvBands, gross)) / valueBasis, 0)} loan to value`;
  }

  const monthlyRateAt = (gross: number) =>
    rateBandFor(product.rateCard, gross / valueBasis).ratePerMonth + ratePremium;
  let gross: number;
  let monthlyRate: number;
  let sizedToMax = false;

  if (payload.maxLoanRequired) {
    const best = largestWithinBands(product.maxLtvBands, capFor, product.maxLoan, (limit) => limit);
    if (best === null || best <= 0)
      return decline('The property value leaves no room for a loan within its limits');
    gross = best;
    monthlyRate = monthlyRateAt(gross);
    sizedToMax = true;
  } else {
    const wanted = payload.netLoanRequired ?? 0;
    const settled = settleRate(
      monthlyRateAt(wanted),
      (rate) => bridgingFinance(product, rate, payload.loanTerm).grossForNet(wanted),
      (g) => monthlyRateAt(Number.isFinite(g) ? g : product.maxLoan),
    );
    gross = settled.result;
    monthlyRate = settled.rate;
    if (!Number.isFinite(gross))
      return decline('Its fees and interest over this term would absorb the whole loan');
    const cap = capFor(sizeBandFor(product.maxLtvBands, gross));
    if (gross > cap + 0.5)
      return decline(
        `A ${pounds(wanted)} net loan needs a ${pounds(gross)} gross loan, above its limit of ${pounds(cap)} (${capLabel(gross)})`,
      );
  }

  const outsideLimits = declineOutsideLoanLimits(gross, product);
  if (outsideLimits) return outsideLimits;
  const finance = bridgingFinance(product, monthlyRate, payload.loanTerm);
  const net = finance.netForGross(gross);
  if (net <= 0) return decline('Its fees and interest over this term would absorb the whole loan');

  const interest = finance.interest(gross);
  const arrangementFee = finance.fee(gross);
  const exitFee = gross * exitFeePct;
  const otherCosts = product.fees.otherCosts;
  const profit =
    security.kind === 'developerExit' || !payload.estimatedEndValueOfProperty
      ? 0
      : payload.estimatedEndValueOfProperty -
        (payload.ownOrPurchase === 'Purchasing'
          ? security.costBase
          : (payload.currentValue ?? 0) + security.costBase) -
        interest -
        arrangementFee -
        exitFee -
        otherCosts;
  const cap = capFor(sizeBandFor(product.maxLtvBands, gross));
  qualifiesBecause.push(
    `${pounds(gross)} gross loan within its limit of ${pounds(cap)} (${capLabel(gross)})`,
    termWithinRange(payload.loanTerm, product),
  );
  if (sizedToMax)
    qualifiesBecause.push(
      `Sized to its maximum, limited by ${gross >= product.maxLoan - 1 ? `its ${pounds(product.maxLoan)} maximum loan` : capLabel(gross)}`,
    );
  const closeToLimits: string[] = [];
  if (!sizedToMax && isClose(gross, cap))
    closeToLimits.push(`Gross loan is within 5% of its limit of ${pounds(cap)}`);
  closeToLimits.push(...termNearMaximum(payload.loanTerm, product));
  if (payload.loanTerm < product.minInterestMonths)
    closeToLimits.push(
      `Charges at least ${product.minInterestMonths} months' interest however early the loan is repaid`,
    );

  return offered({
    lender,
    product,
    loanType: 'bridging',
    grossLoan: gross,
    netLoan: net,
    annualRate: monthlyRate * 12,
    interestTreatment: product.interestTreatment,
    loanInterest: interest,
    arrangementFee,
    exitFee,
    otherCosts,
    monthlyPayment: product.interestTreatment === 'serviced' ? gross * monthlyRate : 0,
    profitForecast: profit,
    depositRequired: security.costBase - net,
    valueBasis,
    termMonths: payload.loanTerm,
    extra: {
      PurchasePrice: payload.purchasePrice,
      PropertyValue: Math.round(valueBasis),
      BuildCost: security.works || undefined,
    },
    qualifiesBecause,
    closeToLimits,
  });
}
