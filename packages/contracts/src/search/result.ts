import { z } from 'zod';
import { INTEREST_TREATMENTS, LOAN_TYPES } from '../common/enums';

const money = z.number().finite().nonnegative();
/** Offers come back from browsers (saved searches): every text is bounded like any request field. */
const name = z.string().max(200);
const reasons = z.array(z.string().max(500)).max(50);

/**
 * One lender offer as the search service produces it. Field names are the spec's result fields.
 * Units: InterestRate is an annual fraction (0.102 = 10.2% a year); TrueMonthlyCost a monthly fraction
 * (0.0095 = 0.95% a month); LoanToValue, LoanToValueNet and ArrangementFeePercOfValue are percentages
 * (70.0 = 70%); terms are months except MortgageTerm, which is years; money is whole pounds.
 */
export const loanOfferSchema = z.object({
  LenderName: name,
  LenderId: name,
  ProductId: name,
  ProductName: name,
  LoanType: z.enum(LOAN_TYPES),
  GrossLoan: money,
  NetLoan: money,
  InterestRate: z.number().finite().nonnegative(),
  TrueMonthlyCost: z.number().finite().nonnegative(),
  ProfitForecast: money,
  DepositRequired: money,
  MonthlyPayment: money,
  ArrangementFee: money,
  ArrangementFeePercOfValue: z.number().finite().nonnegative(),
  LenderExitFee: money,
  OtherLenderCosts: money,
  LoanInterest: money,
  TotalLenderCosts: money,
  LoanToValue: z.number().finite().nonnegative(),
  LoanToValueNet: z.number().finite().nonnegative(),
  LoanTerm: z.number().int().positive(),
  InterestTreatment: z.enum(INTEREST_TREATMENTS),
  PurchasePrice: money.optional(),
  PropertyValue: money.optional(),
  BuildCost: money.optional(),
  TotalBuildCost: money.optional(),
  TotalProjectCost: money.optional(),
  BuildLoan: money.optional(),
  LandLoan: money.optional(),
  LoanToCost: z.number().finite().nonnegative().optional(),
  MortgageTerm: z.number().int().positive().optional(),
  /** Plain-English reasons this lender's criteria are met: brokers ask "why this lender?" first. */
  qualifiesBecause: reasons,
  /** Criteria within a few per cent of the lender's limit: the figures most likely to change at underwriting. */
  closeToLimits: reasons,
});
export type LoanOffer = z.infer<typeof loanOfferSchema>;

export const declinedLenderSchema = z.object({
  lender: z.string(),
  lenderId: z.string(),
  productId: z.string().optional(),
  reason: z.string(),
});
export type DeclinedLender = z.infer<typeof declinedLenderSchema>;
