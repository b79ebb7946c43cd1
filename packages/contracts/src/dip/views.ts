import { z } from 'zod';
import {
  type DipSnapshot,
  dipBorrowerSchema,
  dipFinancialSchema,
  dipLoanSchema,
  dipProductChangeSchema,
  dipPropertySchema,
  dipSnapshotSchema,
} from './events';

/**
 * Every view of a DIP, declared once from its snapshot (the base, `dipSnapshotSchema`): a section a view
 * shows whole is the snapshot's own schema, so a field added to the snapshot appears in it with no
 * other change, and `DIP_VIEW_FIELDS` (below) says where each view carries each field of the snapshot
 * or why it leaves it out; a test holds every view to it.
 */

export const DIP_STATUSES = ['active', 'expired', 'revoked'] as const;
export type DipStatus = (typeof DIP_STATUSES)[number];

/** An annual rate fraction (0.0875) as the percent a view shows (8.75), to two places. */
export const ratePercentOf = (fraction: number) => Math.round(fraction * 10_000) / 100;

const snapshot = dipSnapshotSchema.shape;

/**
 * The DIP's terms as whoever reads the whole DIP sees them (its owner, and anyone it is shared with):
 * the snapshot's sections as issued, with the loan naming its lender and product, its net loan as
 * `netLoanAmount` and its rate as a percent (`ratePercent`).
 */
export const dipTermsSchema = z.object({
  borrower: dipBorrowerSchema,
  property: dipPropertySchema,
  financial: dipFinancialSchema,
  loan: dipLoanSchema.omit({ netLoan: true, interestRate: true }).extend({
    lenderName: snapshot.lenderName,
    productName: snapshot.productName,
    netLoanAmount: dipLoanSchema.shape.netLoan,
    ratePercent: z.number().finite().nonnegative(),
  }),
});
export type DipTerms = z.infer<typeof dipTermsSchema>;

/** The terms of {@link dipTermsSchema}, drawn from the snapshot: the one place a rate becomes a percent. */
export function dipTermsOf(s: DipSnapshot): DipTerms {
  const { netLoan, interestRate, ...loan } = s.loan;
  return {
    borrower: s.borrower,
    property: s.property,
    financial: s.financial,
    loan: {
      ...loan,
      lenderName: s.lenderName,
      productName: s.productName,
      netLoanAmount: netLoan,
      ratePercent: ratePercentOf(interestRate),
    },
  };
}

/** What every reader of the whole DIP sees: its reference, its state and its terms. */
export const dipDetailSchema = dipTermsSchema.extend({
  id: z.string(),
  reference: z.string(),
  quoteCode: z.string(),
  status: z.enum(DIP_STATUSES),
  expires_at: z.string(),
});
export type DipDetail = z.infer<typeof dipDetailSchema>;

/** The DIP as its owner sees it ('DIP (owner view)'): the detail, its link and what happened to it since. */
export const dipOwnerViewSchema = dipDetailSchema.extend({
  created_at: z.string(),
  shareSlug: z.string().nullable(),
  shareUrl: z.string().nullable(),
  validityHours: z.number(),
  shared: z.object({ sharedOn: z.string().nullable() }),
  /** Set once a panel change withdrew or repriced the DIP's product (its terms stay as issued). */
  productChange: dipProductChangeSchema.nullable(),
});
export type DipOwnerView = z.infer<typeof dipOwnerViewSchema>;

/**
 * The DIP as someone it is shared with reads it: the detail, its reference in both spellings, never
 * the owner's link state or product notices; `snapshot` is the DIP as issued, which this view carried
 * before the terms were given as the detail's sections.
 */
export const dipSharedViewSchema = dipDetailSchema.extend({
  status: z.enum(['active', 'expired']),
  quote_code: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  shareSlug: z.string().nullable(),
  share_slug: z.string().nullable(),
  snapshot: dipSnapshotSchema,
});
export type DipSharedView = z.infer<typeof dipSharedViewSchema>;

/** The DIP as a list shows it, the owner's and the recipients' alike. */
export const dipSummarySchema = dipSnapshotSchema
  .pick({ propertyAddress: true, projectName: true, searchData: true, lenderName: true, loanType: true })
  .extend(dipLoanSchema.pick({ netLoan: true, grossLoan: true, interestRate: true }).shape);
export type DipSummary = z.infer<typeof dipSummarySchema>;

export function dipSummaryOf(s: DipSnapshot): DipSummary {
  return {
    propertyAddress: s.propertyAddress,
    projectName: s.projectName,
    searchData: s.searchData,
    lenderName: s.lenderName,
    loanType: s.loanType,
    netLoan: s.loan.netLoan,
    grossLoan: s.loan.grossLoan,
    interestRate: s.loan.interestRate,
  };
}

/** One DIP of the owner's dashboard list ('DIP (dashboard list item)'). */
export const dipListItemSchema = z.object({
  id: z.string(),
  quoteCode: z.string(),
  isExpired: z.boolean(),
  status: z.enum(DIP_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  shareUrl: z.string().nullable(),
  snapshot: dipSummarySchema,
  /** As the owner's view has it (the list is the owner's). */
  productChange: dipProductChangeSchema.nullable(),
});
export type DipListItem = z.infer<typeof dipListItemSchema>;

/** The online DIP page ('Online DIP view'): flat, with percents to the places the page shows. */
export const onlineDipViewSchema = z.object({
  quoteCode: z.string(),
  generatedOn: z.string(),
  expiresAt: z.string(),
  productType: dipLoanSchema.shape.productType,
  regulated: dipLoanSchema.shape.regulated,
  borrowerSalutation: dipBorrowerSchema.shape.salutation,
  borrowerName: z.string(),
  projectCity: z.string(),
  validityHours: z.number(),
  promoEligibleZeroBrokerFee: snapshot.promoEligibleZeroBrokerFee,
  lenderName: snapshot.lenderName,
  loan: dipLoanSchema.pick({ netLoan: true, monthlyPayment: true, mortgageTermYears: true }).extend({
    interestRatePct: z.number(),
    arrangementFeePct: z.number(),
    depositRequired: dipFinancialSchema.shape.depositRequired,
    ltvPct: z.number(),
  }),
  project: dipPropertySchema.pick({ location: true, propertyType: true, ownerOccupied: true }).extend({
    propertyValue: dipPropertySchema.shape.currentValue,
    borrowingEntity: dipBorrowerSchema.shape.entity,
    mortgageTermYears: dipLoanSchema.shape.mortgageTermYears,
  }),
  /** As the owner's view has it, for the owner only: null for anyone the DIP was shared with. */
  productChange: dipProductChangeSchema.nullable(),
});
export type OnlineDipView = z.infer<typeof onlineDipViewSchema>;

/** Where a view carries the snapshot's fields it does not carry under the same path, or why it has none. */
export interface DipViewFields {
  schema: z.ZodObject;
  /** Snapshot path → the path in the view that carries it. */
  renamed: Record<string, string>;
  /** Snapshot path (a section leaves out all it holds) → why the view does not show it. */
  excluded: Record<string, string>;
}

const INPUTS = 'the inputs the DIP was drawn from, not its terms';
const PANEL_KEYS = "the panel's keys, for matching a panel change; readers see the lender and product names";
const SUMMARY = "a list shows the DIP's summary; opening it shows the rest";

/**
 * Each view against the snapshot. A field added to the snapshot is in the detail views' sections at
 * once; any other view fails its test until the field is placed in it or left out here with a reason.
 */
export const DIP_VIEW_FIELDS: Record<string, DipViewFields> = {
  owner: {
    schema: dipOwnerViewSchema,
    renamed: {
      lenderName: 'loan.lenderName',
      productName: 'loan.productName',
      'loan.netLoan': 'loan.netLoanAmount',
      'loan.interestRate': 'loan.ratePercent',
    },
    excluded: {
      loanType: "the loan's productType names the product ('Bridging Loan')",
      lenderId: PANEL_KEYS,
      productId: PANEL_KEYS,
      projectName: "the property's address lines carry the address; the single-line forms are the lists'",
      propertyAddress: "the property's address lines carry the address; the single-line forms are the lists'",
      promoEligibleZeroBrokerFee: "the online DIP page's promotion, told once there",
      searchData: INPUTS,
      offer: INPUTS,
    },
  },
  // The owner's detail, and the snapshot as issued beside it.
  shared: {
    schema: dipSharedViewSchema,
    renamed: {
      lenderName: 'loan.lenderName',
      productName: 'loan.productName',
      'loan.netLoan': 'loan.netLoanAmount',
      'loan.interestRate': 'loan.ratePercent',
      ...Object.fromEntries(
        ['loanType', 'lenderId', 'productId', 'projectName', 'propertyAddress']
          .concat(['promoEligibleZeroBrokerFee', 'searchData', 'offer'])
          .map((key) => [key, `snapshot.${key}`]),
      ),
    },
    excluded: {},
  },
  list: {
    schema: dipListItemSchema,
    renamed: Object.fromEntries(
      Object.keys(dipSummarySchema.shape).map((key) => [
        key in snapshot ? key : `loan.${key}`,
        `snapshot.${key}`,
      ]),
    ),
    excluded: {
      lenderId: PANEL_KEYS,
      productId: PANEL_KEYS,
      productName: SUMMARY,
      borrower: SUMMARY,
      property: SUMMARY,
      financial: SUMMARY,
      'loan.productType': SUMMARY,
      'loan.regulated': SUMMARY,
      'loan.fees': SUMMARY,
      'loan.termMonths': SUMMARY,
      'loan.ltvPercent': SUMMARY,
      'loan.monthlyPayment': SUMMARY,
      'loan.arrangementFeePercent': SUMMARY,
      'loan.mortgageTermYears': SUMMARY,
      promoEligibleZeroBrokerFee: SUMMARY,
      offer: INPUTS,
    },
  },
  online: {
    schema: onlineDipViewSchema,
    renamed: {
      'loan.productType': 'productType',
      'loan.regulated': 'regulated',
      'borrower.salutation': 'borrowerSalutation',
      'borrower.name': 'borrowerName',
      'borrower.entity': 'project.borrowingEntity',
      'property.city': 'projectCity',
      'property.location': 'project.location',
      'property.propertyType': 'project.propertyType',
      'property.ownerOccupied': 'project.ownerOccupied',
      'property.currentValue': 'project.propertyValue',
      'loan.interestRate': 'loan.interestRatePct',
      'loan.arrangementFeePercent': 'loan.arrangementFeePct',
      'loan.ltvPercent': 'loan.ltvPct',
      'financial.depositRequired': 'loan.depositRequired',
    },
    excluded: {
      loanType: "productType names the product ('Bridging Loan')",
      lenderId: PANEL_KEYS,
      productId: PANEL_KEYS,
      productName: 'the page names the lender; the product is in the PDF and the detail',
      projectName: 'the page names the location and city, not the project',
      propertyAddress: 'a page opened by link names the city, never the street address',
      'borrower.email': 'a page opened by link never shows the borrower’s email',
      'property.addressLine1': 'a page opened by link names the city, never the street address',
      'property.addressLine2': 'a page opened by link names the city, never the street address',
      'property.county': 'a page opened by link names the city, never the street address',
      'property.postcode': 'a page opened by link names the city, never the street address',
      'loan.grossLoan': 'the page is the borrower’s summary: the net loan and the monthly payment',
      'loan.fees': 'the page is the borrower’s summary: the net loan and the monthly payment',
      'loan.termMonths': 'the page is the borrower’s summary: the net loan and the monthly payment',
      'financial.purchasePrice': 'the page is the borrower’s summary: the net loan and the monthly payment',
      'financial.projectCost': 'the page is the borrower’s summary: the net loan and the monthly payment',
      'financial.buildCost': 'the page is the borrower’s summary: the net loan and the monthly payment',
      'financial.gdv': 'the page is the borrower’s summary: the net loan and the monthly payment',
      searchData: INPUTS,
      offer: INPUTS,
    },
  },
};
