import type { LoanOffer } from '@lsp/contracts';
import { Decimal128 } from 'mongodb';
import type { Dip } from '../src/domain/views';
import { buildSnapshot } from '../src/domain/snapshot';
import type { PdfDip } from '../src/pdf';

/** A DIP's fields as it is created: version 1, never shared, revoked, re-priced or checked since. */
export const AS_CREATED = {
  version: 1,
  firstSharedAt: null,
  linkRevokedAt: null,
  productChange: null,
  pricedUnder: null,
  productCheckedAt: null,
} as const;

/** A development offer in the shape and scale the search service computes. */
export const OFFER: LoanOffer = {
  LenderName: 'Ember Lane Credit',
  LenderId: 'ember-lane-credit',
  ProductId: 'ember-dev-70',
  ProductName: 'Development 70',
  LoanType: 'development',
  GrossLoan: 2262869,
  NetLoan: 1934999,
  InterestRate: 0.1125,
  TrueMonthlyCost: 0.0131,
  ProfitForecast: 402000,
  DepositRequired: 360001,
  MonthlyPayment: 0,
  ArrangementFee: 45257,
  ArrangementFeePercOfValue: 1.41,
  LenderExitFee: 22629,
  OtherLenderCosts: 1500,
  LoanInterest: 268312,
  TotalLenderCosts: 337698,
  LoanToValue: 70.71,
  LoanToValueNet: 60.47,
  LoanTerm: 18,
  InterestTreatment: 'rolled',
  PurchasePrice: 1200000,
  BuildCost: 900000,
  TotalProjectCost: 2160000,
  qualifiesBecause: ['Loan to GDV within 70%'],
  closeToLimits: [],
};

/** A DIP to render: the snapshot built from OFFER, dates fixed so the text can be checked. */
export function pdfDip(id: string, version = 1, projectName = 'Riverside <Mews> & Co'): PdfDip {
  return {
    id,
    ownerUserId: 'user-1',
    version,
    quoteCode: 'K7MQ-X9PA',
    snapshot: buildSnapshot(
      'development',
      OFFER,
      { projectName, propertyLocation: 'SouthEast', propertyClass: 'Residential', gdv: 3200000 },
      { name: 'Alex Investor', email: 'alex@example.co.uk' },
      true,
    ),
    createdAt: '2026-03-02T10:00:00.000Z',
    expiresAt: '2026-03-04T10:00:00.000Z',
    validityHours: 48,
  };
}

/** A complete DIP application as the wizard sends it (every field the wizard has). */
export const DIP_APPLICATION = {
  loanType: 'development',
  fullName: 'Alex Investor',
  email: 'alex@example.co.uk',
  phone: '07700 900123',
  propertyAddress: '12 Mill Lane, Leeds',
  propertyType: 'residential',
  propertyValue: '1,500,000',
  loanAmount: '£950,000',
  loanTerm: '18',
  loanPurpose: 'development',
  exitStrategy: 'sale',
  annualIncome: 120000,
  existingDebt: '',
  creditScore: 'good',
  additionalInfo: 'First phase of two.',
};

/**
 * An online_dips document as the code before document versions wrote it (version 1): no
 * `schemaVersion`, none of the fields added since, and these money fields as Decimal128.
 */
export function versionOneDocument(dip: Dip): Record<string, unknown> {
  const { id, snapshot: s, linkRevokedAt, productChange, pricedUnder, productCheckedAt, ...rest } = dip;
  void [linkRevokedAt, productChange, pricedUnder, productCheckedAt];
  const money = (n: number) => Decimal128.fromString(n.toFixed(2));
  return {
    _id: id,
    ...rest,
    snapshot: {
      ...s,
      loan: {
        ...s.loan,
        netLoan: money(s.loan.netLoan),
        grossLoan: money(s.loan.grossLoan),
        fees: money(s.loan.fees),
        monthlyPayment: money(s.loan.monthlyPayment),
      },
      property: { ...s.property, currentValue: money(s.property.currentValue) },
      financial: {
        depositRequired: money(s.financial.depositRequired),
        purchasePrice: money(s.financial.purchasePrice),
        projectCost: money(s.financial.projectCost),
        buildCost: money(s.financial.buildCost),
        gdv: s.financial.gdv === null ? null : money(s.financial.gdv),
      },
    },
  };
}
