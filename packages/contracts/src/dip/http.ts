import { z } from 'zod';
import { LOAN_TYPES } from '../common/enums';
import { jsonObject } from '../common/json';
import { EMAIL_MAX_LENGTH, EMAIL_TEXT_PATTERN, isoDateTimeText } from '../common/text';
import { coerceNumericText } from '../search/fields';

/** The spec's wording for every answer of the DIP calls. */
export const DIP_MESSAGES = {
  authRequired: 'Authentication Required - Please log in to create a DIP',
  accessDenied: "You don't have access to this DIP. Please contact the person who shared it with you.",
  notFound: 'DIP not found or may have been removed',
  expired: 'This DIP has expired and is no longer available',
  searchNotFound: 'Search not found',
  searchAccessDenied: 'Access denied',
  offerNotFound: 'That offer is not part of this search. Please run the search again and choose an offer.',
  pdfNotAvailable: 'Cannot download PDF - DIP information not available',
  pdfInvalidReference: 'invalid DIP reference',
  pdfFailed: 'Could not generate PDF. Please try again.',
  pdfBusy: 'The PDF is taking longer than usual to prepare. Please try again in a moment.',
  applicationFailed: 'Failed to submit your application. Please try again.',
} as const;

/** How long a DIP is valid when the request does not say; the Get DIP dialog asks for this too. */
export const DIP_DEFAULT_VALID_HOURS = 48;
/** The longest validity a DIP can be created with (a week); longer is the owner's Set Expiry. */
export const DIP_MAX_VALID_HOURS = 168;
/** The Set Expiry shortcut: 30 days from now. */
export const DIP_EXPIRY_SHORTCUT_DAYS = 30;
/** The furthest an owner may move the expiry: a year from now. */
export const DIP_MAX_EXPIRY_DAYS = 365;
/** The zero broker fee promotion lasts 6 months. */
export const ZERO_BROKER_FEE_PROMO_MONTHS = 6;

/** POST /api/online-dip/create/{searchId}/{loanIndex}. */
export const createDipParamsSchema = z.object({
  searchId: z.string().min(1).max(100),
  // Digits only: z.coerce would read '' and whitespace as 0.
  loanIndex: z.preprocess(
    (v) => (typeof v === 'string' && v.length <= 6 && /^\d{1,6}$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'The offer index must be a whole number' })
      .int('The offer index must be a whole number')
      .min(0, 'The offer index must be a whole number')
      .max(10_000, 'The offer index must be a whole number'),
  ),
});

export const createDipBodySchema = z
  .object({
    validHours: z.preprocess(
      coerceNumericText,
      z
        .number({ error: 'validHours must be a number of hours' })
        .int('validHours must be a whole number of hours')
        .min(1, 'validHours must be at least 1')
        .max(DIP_MAX_VALID_HOURS, `validHours must be at most ${DIP_MAX_VALID_HOURS}`)
        .optional(),
    ),
  })
  .strip();

export const createDipResponseSchema = z.object({
  ok: z.literal(true),
  dipId: z.string(),
  quoteCode: z.string(),
  shareUrl: z.string(),
  expiresAt: z.string(),
  validityHours: z.number(),
});
export type CreateDipResponse = z.infer<typeof createDipResponseSchema>;

/** POST /api/online-dip/{dipId}/expiry: a new expiry, by default 30 days from now. */
export const dipExpiryBodySchema = z
  .object({
    expiresAt: isoDateTimeText('expiresAt must be a date and time').optional(),
  })
  .strip();

// ---------------------------------------------------------------- applications

/** Length is checked before trimming: a megabyte of spaces is refused, not read as blank. */
const boundedText = (max: number) => z.string().max(max, `Must be at most ${max} characters`).trim();
/** Whole-number text as the wizard's inputs send it ('18'); longer text is left to be refused. */
const wholeNumberText = (v: unknown) =>
  typeof v !== 'string' || v.length > 20 ? v : v.trim() === '' ? undefined : Number.parseInt(v, 10);
const optionalText = (max: number) =>
  z.preprocess((v) => (v === null || v === '' ? undefined : v), boundedText(max).optional());

/** A decimal given as a number or as text ('250,000'); absent when blank. */
const optionalDecimal = (label: string) =>
  z.preprocess(
    coerceNumericText,
    z
      .number({ error: `${label} must be a number` })
      .min(0, `${label} cannot be negative`)
      .max(1_000_000_000, `${label} must be at most 1,000,000,000`)
      .optional(),
  );

export const LOAN_PURPOSES = ['purchase', 'refinance', 'development', 'bridging', 'investment'] as const;
export const EXIT_STRATEGIES = ['sale', 'refinance', 'rental', 'other'] as const;
export const EXIT_STRATEGY_LABELS: Record<(typeof EXIT_STRATEGIES)[number], string> = {
  sale: 'Sale',
  refinance: 'Refinance to term loan',
  rental: 'Hold as rental',
  other: 'Other',
};
export const APPLICATION_PROPERTY_TYPES = [
  'residential',
  'commercial',
  'mixed',
  'land',
  'industrial',
] as const;
export const CREDIT_SCORE_RANGES = ['excellent', 'very-good', 'good', 'fair', 'poor'] as const;
export const CREDIT_SCORE_LABELS: Record<(typeof CREDIT_SCORE_RANGES)[number], string> = {
  excellent: 'Excellent (781-850)',
  'very-good': 'Very good (661-780)',
  good: 'Good (601-660)',
  fair: 'Fair (501-600)',
  poor: 'Poor (300-500)',
};
export const APPLICATION_STATUSES = ['submitted', 'under_review', 'approved', 'declined'] as const;

/** POST /api/dip-applications: the wizard, checked at submit with the spec's validation messages. */
export const dipApplicationBodySchema = z
  .object({
    userId: optionalText(100),
    searchId: optionalText(100),
    loanType: z.enum(LOAN_TYPES, { error: 'Loan type must be bridging, commercial or development' }),
    loanData: jsonObject('loanData').optional(),
    fullName: z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required').max(200),
    email: z
      .string({ error: 'Valid email is required' })
      .trim()
      .superRefine((value, ctx) => {
        if (value.length > EMAIL_MAX_LENGTH || !EMAIL_TEXT_PATTERN.test(value))
          ctx.addIssue({ code: 'custom', message: 'Valid email is required' });
      }),
    phone: z
      .string({ error: 'Valid phone number is required' })
      .trim()
      .min(10, 'Valid phone number is required')
      .max(40, 'Valid phone number is required'),
    companyName: optionalText(200),
    companyNumber: optionalText(40),
    propertyAddress: z
      .string({ error: 'Property address is required' })
      .trim()
      .min(1, 'Property address is required')
      .max(500),
    propertyType: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.enum(APPLICATION_PROPERTY_TYPES, { error: 'Choose a property type' }).optional(),
    ),
    propertyValue: optionalDecimal('Property value'),
    loanAmount: z.preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z.string({ error: 'Loan amount is required' }).trim().min(1, 'Loan amount is required').max(40),
    ),
    loanTerm: z.preprocess(
      wholeNumberText,
      z
        .number({ error: 'Loan term is required' })
        .int('Loan term is required')
        .min(1, 'Loan term is required')
        .max(600, 'Loan term must be at most 600 months'),
    ),
    loanPurpose: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.enum(LOAN_PURPOSES, { error: 'Choose a loan purpose' }).optional(),
    ),
    exitStrategy: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.enum(EXIT_STRATEGIES, { error: 'Choose an exit strategy' }).optional(),
    ),
    annualIncome: optionalDecimal('Annual income'),
    existingDebt: optionalDecimal('Existing debt'),
    creditScore: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.enum(CREDIT_SCORE_RANGES, { error: 'Choose a credit score range' }).optional(),
    ),
    additionalInfo: optionalText(5000),
  })
  .strip();
export type DipApplicationBody = z.infer<typeof dipApplicationBodySchema>;

/** POST /api/applications ('Continue application'): the stored loan_applications fields. */
export const loanApplicationBodySchema = z
  .object({
    userId: optionalText(100),
    searchId: optionalText(100),
    loanType: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.enum(LOAN_TYPES, { error: 'Loan type must be bridging, commercial or development' }).optional(),
    ),
    companyName: optionalText(200),
    ltdName: optionalText(200),
    companyNumber: optionalText(40),
    purchaseInLtd: z.boolean().optional(),
    propertyAddress: z
      .string({ error: 'Property address is required' })
      .trim()
      .min(1, 'Property address is required')
      .max(500),
    purchasePrice: optionalDecimal('Purchase price'),
    buildCosts: optionalDecimal('Build costs'),
    gdv: optionalDecimal('GDV'),
    loanAmount: optionalDecimal('Loan amount'),
    term: z.preprocess(
      wholeNumberText,
      z.number({ error: 'Term must be a number of months' }).int().min(1).max(600).optional(),
    ),
    exitStrategy: optionalText(200),
    creditStatus: optionalText(200),
    brokerFee: optionalDecimal('Broker fee'),
    additionalNotes: optionalText(5000),
    selectedLoan: jsonObject('selectedLoan').optional(),
    searchData: jsonObject('searchData').optional(),
  })
  .strip();
export type LoanApplicationBody = z.infer<typeof loanApplicationBodySchema>;

/** One application on the dashboard ('Application (dashboard)'). */
export const applicationListItemSchema = z.object({
  id: z.string(),
  kind: z.enum(['dip-application', 'loan-application']),
  property_address: z.string(),
  loan_amount: z.number().nullable(),
  loan_type: z.enum(LOAN_TYPES).nullable(),
  status: z.string(),
  created_at: z.string(),
});
export type ApplicationListItem = z.infer<typeof applicationListItemSchema>;
