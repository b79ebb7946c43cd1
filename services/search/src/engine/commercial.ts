import { FIXED_RATE_TERM_YEARS, TIME_LEFT_ON_LEASE, type CommercialSearch } from '@lsp/contracts';
import type { CommercialProduct } from '../panel/schema';
import {
  annuityFactor,
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
  type LenderInfo,
  type SizingResult,
} from './common';

/** 'Capital&Interest' and 'Repayment' are the same product: the loan is paid off over the term. */
const isInterestOnly = (payload: CommercialSearch) => payload.loanRepaymentType === 'InterestOnly';

export function commercialPropertyValue(payload: CommercialSearch): number {
  return payload.ownOrPurchase === 'Purchasing' ? (payload.purchasePrice ?? 0) : (payload.currentValue ?? 0);
}

/** Monthly payment: interest-only = loan × annual rate ÷ 12; repayment = standard annuity over the term. */
export function commercialMonthlyPayment(
  gross: number,
  annualRate: number,
  termYears: number,
  interestOnly: boolean,
): number {
  return interestOnly ? (gross * annualRate) / 12 : gross * annuityFactor(annualRate, termYears * 12);
}

export function sizeCommercialLoan(
  payload: CommercialSearch,
  product: CommercialProduct,
  lender: LenderInfo,
): SizingResult {
  const termMonths = payload.mortgageTerm * 12;
  const interestOnly = isInterestOnly(payload);
  const repaymentType = interestOnly ? 'InterestOnly' : payload.loanRepaymentType;
  // The term is screened below, in years, after the occupancy and borrower checks.
  const screened = screenDeal(lender, product, {
    location: payload.propertyLocation,
    propertyClass: payload.currentPropertyType,
    refusedClassReason: `Does not lend on ${spaced(payload.currentPropertyType)} property`,
  });
  if (screened) return screened;
  if (payload.isOwnerOccupied && !product.acceptsOwnerOccupied)
    return decline('Lends on investment property only, not owner-occupied');
  if (!payload.isOwnerOccupied && !product.acceptsInvestment)
    return decline('Lends to owner-occupiers only, not on let investments');
  if (!product.entityTypes.includes(payload.borrowingEntityType))
    return decline(
      `Does not lend to ${payload.borrowingEntityType === 'Company' ? 'companies' : 'individuals'}`,
    );
  if (termMonths < product.minTermMonths || termMonths > product.maxTermMonths)
    return decline(
      `A ${payload.mortgageTerm}-year term is outside its ${product.minTermMonths / 12}-${product.maxTermMonths / 12} year range`,
    );
  const acceptsRepayment = product.repaymentTypes.some((type) =>
    interestOnly ? type === 'InterestOnly' : type !== 'InterestOnly',
  );
  if (!acceptsRepayment)
    return decline(`Does not offer ${interestOnly ? 'interest-only' : 'capital and interest'} mortgages`);
  let premium = 0;
  if (payload.mortgageInterestType === 'Fixed') {
    const fixed = payload.fixedRateTerm ? product.fixedRatePremium[payload.fixedRateTerm] : undefined;
    if (fixed === undefined || !payload.fixedRateTerm)
      return decline(`Does not offer a ${spaced(payload.fixedRateTerm ?? 'fixed')} fixed rate`);
    if (FIXED_RATE_TERM_YEARS[payload.fixedRateTerm] > payload.mortgageTerm)
      return decline(
        `A ${FIXED_RATE_TERM_YEARS[payload.fixedRateTerm]}-year fix is longer than the ${payload.mortgageTerm}-year term`,
      );
    premium = fixed;
  } else if (!product.variableAvailable) {
    return decline('Offers fixed rates only');
  }
  if (
    !payload.isOwnerOccupied &&
    TIME_LEFT_ON_LEASE.indexOf(payload.timeLeftOnLease) <
      TIME_LEFT_ON_LEASE.indexOf(product.minLeaseRemaining)
  )
    return decline(
      `Needs at least ${spaced(product.minLeaseRemaining).toLowerCase()} left on the tenant's lease`,
    );

  const value = commercialPropertyValue(payload);
  if (value <= 0) return decline('No property value was given to lend against');
  const classCap = product.maxLtvByClass[payload.currentPropertyType] ?? 1;
  const ioCap = interestOnly ? product.interestOnlyMaxLtv : 1;
  const ltvCapFor = (gross: number) =>
    Math.min(sizeBandFor(product.maxLtvBands, gross).maxRatio, classCap, ioCap);
  const rateAt = (gross: number) => rateBandFor(product.rateCard, gross / value).ratePerYear + premium;
  const { arrangementFeePct: f, minArrangementFee: minFee, otherCosts } = product.fees;
  const cover = product.rentalCover;
  const requiredCover =
    interestOnly || payload.mortgageTerm > cover.longTermYears
      ? cover.interestOnly
      : cover.capitalAndInterest;
  const annualRent = payload.isOwnerOccupied ? 0 : (payload.grossMonthlyRentalIncome ?? 0) * 12;
  const stressedRate = (rate: number) => Math.max(rate + cover.stressMargin, cover.stressFloor);
  /** Annual payment per £1 at the stressed rate: what the rent must cover `requiredCover` times. */
  const stressedAnnualPerPound = (rate: number) =>
    interestOnly ? stressedRate(rate) : 12 * annuityFactor(stressedRate(rate), termMonths);
  const maxByRent = (rate: number) =>
    payload.isOwnerOccupied ? Infinity : annualRent / (requiredCover * stressedAnnualPerPound(rate));

  let gross: number;
  let rate: number;
  let sizedBy: string | null = null;
  if (payload.maxLoanRequired) {
    const topRate = rateAt(value * Math.max(...product.maxLtvBands.map((b) => b.maxRatio)));
    const settled = settleRate(
      topRate,
      (annualRate) =>
        largestWithinBands(
          product.maxLtvBands,
          (band) => Math.min(band.maxRatio, classCap, ioCap) * value,
          product.maxLoan,
          (limit) => Math.min(limit, maxByRent(annualRate)),
        ),
      (g) => (g === null ? topRate : rateAt(g)),
    );
    if (settled.result === null || settled.result <= 0)
      return decline('Neither the value nor the rent leaves room for a loan');
    gross = settled.result;
    rate = settled.rate;
    if (gross >= maxByRent(rate) - 2)
      sizedBy = `the rent covering ${pct(requiredCover, 0)} of payments at a stressed ${pct(stressedRate(rate), 2)}`;
    else if (gross >= product.maxLoan - 2) sizedBy = `its ${pounds(product.maxLoan)} maximum loan`;
    else sizedBy = `${pct(ltvCapFor(gross), 0)} loan to value`;
  } else {
    const wanted = payload.netLoanRequired ?? 0;
    gross = Math.max((wanted + otherCosts) / (1 - f), wanted + otherCosts + minFee);
    rate = settleRate(
      rateAt(gross),
      () => gross,
      (g) => rateAt(g),
    ).rate;
    const cap = ltvCapFor(gross);
    if (gross > cap * value + 0.5)
      return decline(
        `A ${pounds(wanted)} net loan needs a ${pounds(gross)} gross loan (${pct(gross / value)} LTV), above its ${pct(cap, 0)} limit`,
      );
    const rentLimit = maxByRent(rate);
    if (gross > rentLimit + 0.5)
      return decline(
        `The rent supports at most ${pounds(rentLimit)}: it must cover ${pct(requiredCover, 0)} of payments at a stressed ${pct(stressedRate(rate), 2)}`,
      );
  }

  const outsideLimits = declineOutsideLoanLimits(gross, product);
  if (outsideLimits) return outsideLimits;
  const arrangementFee = Math.max(f * gross, minFee);
  const net = gross - arrangementFee - otherCosts;
  if (net <= 0) return decline('Its fees would absorb the whole loan');
  const exitFee = gross * product.fees.exitFeePct;
  const monthlyPayment = commercialMonthlyPayment(gross, rate, payload.mortgageTerm, interestOnly);
  const loanInterest = interestOnly
    ? gross * rate * payload.mortgageTerm
    : Math.max(0, monthlyPayment * termMonths - gross);
  const ltv = gross / value;
  const ltvCap = ltvCapFor(gross);
  const qualifiesBecause = [
    `Lends in ${spaced(payload.propertyLocation)} on ${spaced(payload.currentPropertyType)} property`,
    `${pct(ltv)} loan to value within its ${pct(ltvCap, 0)} limit${interestOnly ? ' for interest-only' : ''}`,
    `${payload.isOwnerOccupied ? 'Accepts owner-occupiers' : 'Lends on let investment property'}; lends to ${payload.borrowingEntityType === 'Company' ? 'companies' : 'individuals'}`,
    `${payload.mortgageTerm}-year ${repaymentType === 'InterestOnly' ? 'interest-only' : 'capital and interest'} term within its range`,
  ];
  const closeToLimits: string[] = [];
  if (!payload.isOwnerOccupied) {
    const actualCover = annualRent / (gross * stressedAnnualPerPound(rate));
    qualifiesBecause.push(
      `Rent covers ${pct(actualCover, 0)} of stressed payments against the ${pct(requiredCover, 0)} it requires`,
    );
    if (!sizedBy && actualCover <= requiredCover * 1.05)
      closeToLimits.push(
        `Rental cover ${pct(actualCover, 0)} is close to its ${pct(requiredCover, 0)} minimum`,
      );
  } else {
    closeToLimits.push(
      'Owner-occupied: the lender will test trading profit, which this search does not assess',
    );
  }
  if (sizedBy) qualifiesBecause.push(`Sized to its maximum, limited by ${sizedBy}`);
  if (!sizedBy && isClose(ltv, ltvCap))
    closeToLimits.push(`Loan to value ${pct(ltv)} is close to its ${pct(ltvCap, 0)} limit`);

  return offered({
    lender,
    product,
    loanType: 'commercial',
    grossLoan: gross,
    netLoan: net,
    annualRate: rate,
    interestTreatment: 'serviced',
    loanInterest,
    arrangementFee,
    exitFee,
    otherCosts,
    monthlyPayment,
    // For a let property the forecast is the yearly rent left after mortgage payments.
    profitForecast: payload.isOwnerOccupied ? 0 : annualRent - monthlyPayment * 12,
    depositRequired: payload.ownOrPurchase === 'Purchasing' ? value + (payload.purchaseCosts ?? 0) - net : 0,
    valueBasis: value,
    termMonths,
    extra: {
      PurchasePrice: payload.purchasePrice,
      PropertyValue: value,
      MortgageTerm: payload.mortgageTerm,
    },
    qualifiesBecause,
    closeToLimits,
  });
}
