import { PROFESSIONAL_FEES_FRACTION, type DevelopmentSearch } from '@lsp/contracts';
import type { DevelopmentProduct } from '../panel/schema';
import {
  decline,
  declineOutsideLoanLimits,
  isClose,
  isCloseAbove,
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

export interface DevelopmentCosts {
  contingency: number;
  totalBuildCost: number;
  professionalFees: number;
  totalProjectCost: number;
}

/**
 * Total build cost = build cost + contingency; professional costs and fees 10% of build cost;
 * total project cost = purchase price + purchase costs + total build cost + professional fees + ongoing
 * costs. When the borrower says the contingency is already in the build cost it is not added twice.
 * The form fills in both derived figures and lets the borrower change them (both are fields of the
 * development payload, and professional fees may take pence): a figure the borrower entered is used as entered, the
 * derivation only fills in what was left empty
 * (docs/decisions/0084-development-total-build-cost-and-professional-fees.md).
 */
export function developmentCosts(payload: DevelopmentSearch): DevelopmentCosts {
  const derivedContingency = payload.contingencyIncluded
    ? 0
    : (payload.buildCost * payload.contingencyPercentage) / 100;
  const totalBuildCost = payload.totalBuildCost ?? payload.buildCost + derivedContingency;
  const contingency = Math.max(0, totalBuildCost - payload.buildCost);
  const professionalFees = payload.profCostsAndFees ?? payload.buildCost * PROFESSIONAL_FEES_FRACTION;
  const totalProjectCost =
    payload.purchasePrice +
    (payload.purchaseCosts ?? 0) +
    totalBuildCost +
    professionalFees +
    payload.additionalOngoingCosts;
  return { contingency, totalBuildCost, professionalFees, totalProjectCost };
}

interface Facility {
  landLoan: number;
  buildLoan: number;
  gross: number;
  interest: number;
  arrangementFee: number;
  otherCosts: number;
}

/**
 * The facility needed to advance a land and a build tranche. The land tranche accrues interest from
 * day one; the build tranche is drawn evenly over the build, so on average half of it is out during
 * the build and all of it afterwards. Arrangement fee, costs and interest are added to the loan.
 */
function facilityFor(
  landLoan: number,
  buildLoan: number,
  annualRate: number,
  payload: DevelopmentSearch,
  product: DevelopmentProduct,
): Facility {
  const r = annualRate / 12;
  const n = payload.loanTerm;
  const buildMonths = Math.min(payload.buildTerm, n);
  const interest =
    product.interestTreatment === 'retained'
      ? (landLoan + buildLoan) * r * n
      : landLoan * r * n + buildLoan * r * (buildMonths / 2 + (n - buildMonths));
  const otherCosts = product.fees.otherCosts + product.monitoringFeePerMonth * buildMonths;
  const base = landLoan + buildLoan + interest + otherCosts;
  const gross = Math.max(base / (1 - product.fees.arrangementFeePct), base + product.fees.minArrangementFee);
  return { landLoan, buildLoan, gross, interest, arrangementFee: gross - base, otherCosts };
}

export function sizeDevelopmentLoan(
  payload: DevelopmentSearch,
  product: DevelopmentProduct,
  lender: LenderInfo,
): SizingResult {
  const screened = screenDeal(lender, product, {
    location: payload.propertyLocation,
    propertyClass: payload.propertyClass,
    refusedClassReason: `Does not fund ${spaced(payload.propertyClass)} schemes`,
    termMonths: payload.loanTerm,
  });
  if (screened) return screened;

  const costs = developmentCosts(payload);
  const gdv = payload.gdv;
  const classCap = product.maxLtgdvByClass[payload.propertyClass] ?? 1;
  const ltgdvCapFor = (gross: number) =>
    Math.min(sizeBandFor(product.maxLtgdvBands, gross).maxRatio, classCap);
  const maxLand = product.maxLandAdvance * payload.purchasePrice;
  const buildNeed = costs.totalBuildCost + costs.professionalFees;
  const maxBuild = product.maxBuildFunding * buildNeed;
  const maxNetByLtc = product.maxLtc * costs.totalProjectCost;
  const rateAt = (gross: number) => rateBandFor(product.rateCard, gross / gdv).ratePerYear;
  const f = product.fees;

  let facility: Facility;
  let rate: number;
  let sizedBy: string | null = null;

  if (payload.maxLoanRequired) {
    const sizeAtRate = (annualRate: number): Facility | null => {
      const full = facilityFor(maxLand, maxBuild, annualRate, payload, product);
      // Gross is linear in the share s of both tranches: base(s) = s × A + other costs.
      const perShare = full.gross - full.arrangementFee - full.otherCosts;
      if (perShare <= 0) return null;
      const shareFor = (limit: number) =>
        Math.min(
          1,
          maxNetByLtc / (maxLand + maxBuild),
          (limit * (1 - f.arrangementFeePct) - full.otherCosts) / perShare,
          (limit - full.otherCosts - f.minArrangementFee) / perShare,
        );
      const best = largestWithinBands(
        product.maxLtgdvBands,
        (band) => Math.min(band.maxRatio, classCap) * gdv,
        product.maxLoan,
        (limit) => {
          const share = shareFor(limit);
          return share > 0
            ? facilityFor(maxLand * share, maxBuild * share, annualRate, payload, product).gross
            : 0;
        },
      );
      if (best === null) return null;
      const share = shareFor(best);
      return share > 0 ? facilityFor(maxLand * share, maxBuild * share, annualRate, payload, product) : null;
    };
    const topRate = rateAt(
      Math.min(product.maxLoan, Math.max(...product.maxLtgdvBands.map((b) => b.maxRatio)) * gdv),
    );
    const settled = settleRate(topRate, sizeAtRate, (result) => (result ? rateAt(result.gross) : topRate));
    if (!settled.result) return decline('The deal leaves no room for a loan within its loan-to-GDV limit');
    facility = settled.result;
    rate = settled.rate;
    const cap = ltgdvCapFor(facility.gross);
    if (facility.gross >= cap * gdv - 2) sizedBy = `${pct(cap, 0)} loan to GDV`;
    else if (facility.gross >= product.maxLoan - 2) sizedBy = `its ${pounds(product.maxLoan)} maximum loan`;
    else if (facility.landLoan + facility.buildLoan >= maxNetByLtc - 2)
      sizedBy = `${pct(product.maxLtc, 0)} loan to cost`;
    else
      sizedBy = `its ${pct(product.maxLandAdvance, 0)} land advance and ${pct(product.maxBuildFunding, 0)} build funding`;
  } else {
    const wanted = payload.netLoanRequired ?? 0;
    const landLoan = Math.min(wanted, maxLand);
    const buildLoan = wanted - landLoan;
    if (buildLoan > maxBuild + 0.5)
      return decline(
        `The ${pounds(wanted)} net loan needs ${pounds(buildLoan)} of build funding; it funds at most ${pct(product.maxBuildFunding, 0)} of build costs (${pounds(maxBuild)}) after a ${pct(product.maxLandAdvance, 0)} land advance`,
      );
    const settled = settleRate(
      rateAt(wanted),
      (annualRate) => facilityFor(landLoan, buildLoan, annualRate, payload, product),
      (result) => rateAt(result.gross),
    );
    facility = settled.result;
    rate = settled.rate;
    const net = landLoan + buildLoan;
    if (net > maxNetByLtc + 0.5)
      return decline(
        `The ${pounds(net)} net loan is ${pct(net / costs.totalProjectCost)} of total project cost; its limit is ${pct(product.maxLtc, 0)} loan to cost`,
      );
    const cap = ltgdvCapFor(facility.gross);
    if (facility.gross > cap * gdv + 0.5)
      return decline(
        `A ${pounds(wanted)} net loan needs a ${pounds(facility.gross)} gross loan (${pct(facility.gross / gdv)} of GDV), above its ${pct(cap, 0)} loan-to-GDV limit`,
      );
  }

  const gross = facility.gross;
  const net = facility.landLoan + facility.buildLoan;
  const outsideLimits = declineOutsideLoanLimits(gross, product);
  if (outsideLimits) return outsideLimits;
  if (net <= 0) return decline('Fees and interest would absorb the whole loan');

  const exitFee = gross * f.exitFeePct;
  const financeCosts = facility.interest + facility.arrangementFee + exitFee + facility.otherCosts;
  const profit = gdv - costs.totalProjectCost - financeCosts;
  const profitOnGdv = profit / gdv;
  if (profitOnGdv < product.minProfitOnGdv)
    return decline(
      `Profit on GDV of ${pct(Math.max(profitOnGdv, 0))} after finance costs is below its ${pct(product.minProfitOnGdv, 0)} minimum`,
    );

  const ltgdv = gross / gdv;
  const ltgdvCap = ltgdvCapFor(gross);
  const ltc = net / costs.totalProjectCost;
  const qualifiesBecause = [
    `Lends in ${spaced(payload.propertyLocation)} and funds ${spaced(payload.propertyClass)} schemes`,
    `${pct(ltgdv)} loan to GDV within its ${pct(ltgdvCap, 0)} limit`,
    `${pct(ltc)} loan to cost within its ${pct(product.maxLtc, 0)} limit`,
    `Profit on GDV of ${pct(profitOnGdv)} meets its ${pct(product.minProfitOnGdv, 0)} minimum`,
    termWithinRange(payload.loanTerm, product),
  ];
  if (sizedBy) qualifiesBecause.push(`Sized to its maximum, limited by ${sizedBy}`);
  const closeToLimits: string[] = [];
  if (!sizedBy && isClose(ltgdv, ltgdvCap))
    closeToLimits.push(`Loan to GDV ${pct(ltgdv)} is close to its ${pct(ltgdvCap, 0)} limit`);
  if (isClose(ltc, product.maxLtc))
    closeToLimits.push(`Loan to cost ${pct(ltc)} is close to its ${pct(product.maxLtc, 0)} limit`);
  if (isCloseAbove(profitOnGdv, product.minProfitOnGdv))
    closeToLimits.push(
      `Profit on GDV ${pct(profitOnGdv)} is close to its ${pct(product.minProfitOnGdv, 0)} minimum`,
    );
  closeToLimits.push(...termNearMaximum(payload.loanTerm, product));

  return offered({
    lender,
    product,
    loanType: 'development',
    grossLoan: gross,
    netLoan: net,
    annualRate: rate,
    interestTreatment: product.interestTreatment,
    loanInterest: facility.interest,
    arrangementFee: facility.arrangementFee,
    exitFee,
    otherCosts: facility.otherCosts,
    // Interest is rolled up or retained: nothing is paid monthly; the offer says which.
    monthlyPayment: 0,
    profitForecast: profit,
    depositRequired: costs.totalProjectCost - net,
    valueBasis: gdv,
    termMonths: payload.loanTerm,
    extra: {
      PurchasePrice: payload.purchasePrice,
      PropertyValue: gdv,
      BuildCost: payload.buildCost,
      TotalBuildCost: Math.round(costs.totalBuildCost),
      TotalProjectCost: Math.round(costs.totalProjectCost),
      LandLoan: Math.round(facility.landLoan),
      BuildLoan: Math.round(facility.buildLoan),
      LoanToCost: Math.round(ltc * 10000) / 100,
    },
    qualifiesBecause,
    closeToLimits,
  });
}
