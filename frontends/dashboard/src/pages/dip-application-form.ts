// The DIP application wizard's rules (the 'DIP application wizard'): the five steps,
// each loan type's title/description/tip, the choices, the values it starts from (the offer chosen on
// the results, held under `pendingApplication`), the check at submit, which is the dip service's own
// schema, so the browser shows the server's validation messages word for word, and the review.
import {
  APPLICATION_PROPERTY_TYPES,
  CREDIT_SCORE_LABELS,
  CREDIT_SCORE_RANGES,
  EXIT_STRATEGIES,
  EXIT_STRATEGY_LABELS,
  LOAN_PURPOSES,
  dipApplicationBodySchema,
  formatCurrency,
} from '@lsp/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver } from 'react-hook-form';

export const WIZARD_STEPS = [
  'Loan Details',
  'Applicant Info',
  'Property Info',
  'Financial Info',
  'Submit',
] as const;
export const LAST_STEP = WIZARD_STEPS.length - 1;

export type WizardLoanType = 'bridging' | 'commercial' | 'development';
export const isWizardLoanType = (value: unknown): value is WizardLoanType =>
  value === 'bridging' || value === 'commercial' || value === 'development';

export interface LoanTypeCopy {
  title: string;
  description: string;
  tip: string;
}

export const LOAN_TYPE_COPY: Record<WizardLoanType, LoanTypeCopy> = {
  development: {
    title: 'Development Finance DIP Application',
    description:
      'Apply for a Decision in Principle on your development project: the loan, you, the site and your finances.',
    tip: 'Lenders size development loans on the build cost and the gross development value: have your cost plan and GDV evidence to hand.',
  },
  bridging: {
    title: 'Bridging Loan DIP Application',
    description:
      'Apply for a Decision in Principle on your bridging loan: the loan, you, the property and your finances.',
    tip: 'Bridging lenders look hardest at the exit: say clearly how the loan will be repaid (a sale or a refinance) and when.',
  },
  commercial: {
    title: 'Commercial Mortgage DIP Application',
    description:
      'Apply for a Decision in Principle on your commercial mortgage: the loan, you, the property and your finances.',
    tip: 'Rental income and lease terms drive commercial lending: add the rent and the time left on the lease under additional information.',
  },
};

/** Any other loan type in the address: the generic wording (submit then says the loan type is wrong). */
export const GENERIC_COPY: LoanTypeCopy = {
  title: 'DIP Application',
  description: 'Apply for a Decision in Principle in five short steps.',
  tip: 'Answer as fully as you can: a complete application gets a faster decision.',
};

export const copyFor = (loanType: string): LoanTypeCopy =>
  isWizardLoanType(loanType) ? LOAN_TYPE_COPY[loanType] : GENERIC_COPY;

const capitalise = (value: string) => value[0].toUpperCase() + value.slice(1);

export const LOAN_PURPOSE_OPTIONS = LOAN_PURPOSES.map((value) => ({ value, label: capitalise(value) }));
export const EXIT_STRATEGY_OPTIONS = EXIT_STRATEGIES.map((value) => ({
  value,
  label: EXIT_STRATEGY_LABELS[value],
}));
export const PROPERTY_TYPE_OPTIONS = APPLICATION_PROPERTY_TYPES.map((value) => ({
  value,
  label: value === 'mixed' ? 'Mixed use' : capitalise(value),
}));
export const CREDIT_SCORE_OPTIONS = CREDIT_SCORE_RANGES.map((value) => ({
  value,
  label: CREDIT_SCORE_LABELS[value],
}));

export const WHAT_HAPPENS_NEXT = [
  'Initial review within 24 hours',
  'Credit assessment and valuation',
  'DIP issued typically in 2-3 business days',
  'Full application if approved',
] as const;

export interface WizardValues {
  loanAmount: string;
  loanTerm: string;
  loanPurpose: string;
  exitStrategy: string;
  fullName: string;
  email: string;
  phone: string;
  companyName: string;
  companyNumber: string;
  propertyAddress: string;
  propertyType: string;
  propertyValue: string;
  annualIncome: string;
  existingDebt: string;
  creditScore: string;
  additionalInfo: string;
}
export type WizardField = keyof WizardValues;

/** Which step shows each field (and 'loanType', shown on the review step). */
export const FIELD_STEP: Record<WizardField | 'loanType', number> = {
  loanAmount: 0,
  loanTerm: 0,
  loanPurpose: 0,
  exitStrategy: 0,
  fullName: 1,
  email: 1,
  phone: 1,
  companyName: 1,
  companyNumber: 1,
  propertyAddress: 2,
  propertyType: 2,
  propertyValue: 2,
  annualIncome: 3,
  existingDebt: 3,
  creditScore: 3,
  additionalInfo: 3,
  loanType: 4,
};

/** The offer chosen on the results ('Apply Now', 'Continue Application'), as the search remote keeps it. */
export interface PendingApplication {
  formData: Record<string, unknown>;
  selectedLoan: Record<string, unknown>;
  loanType: WizardLoanType;
  searchId?: string;
}

export function readPendingApplication(raw: string | null): PendingApplication | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    if (!parsed || typeof parsed.selectedLoan !== 'object' || !parsed.selectedLoan) return null;
    if (!isWizardLoanType(parsed.loanType)) return null;
    return {
      formData:
        parsed.formData && typeof parsed.formData === 'object'
          ? (parsed.formData as Record<string, unknown>)
          : {},
      selectedLoan: parsed.selectedLoan as Record<string, unknown>,
      loanType: parsed.loanType,
      searchId: typeof parsed.searchId === 'string' && parsed.searchId ? parsed.searchId : undefined,
    };
  } catch {
    return null;
  }
}

/** A number the offer or the form may hold as text ('520,000'); null when there is none. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.replace(/[,£\s]/g, ''));
  return Number.isFinite(n) ? n : null;
}

export interface SelectedLoanSummary {
  lender: string;
  grossLoan: number | null;
  interestRate: number | null;
}

export function selectedLoanSummary(loan: Record<string, unknown>): SelectedLoanSummary {
  const lender = [loan.LenderName, loan.Lender].find((v) => typeof v === 'string' && v.trim());
  return {
    lender: typeof lender === 'string' ? lender : 'Selected lender',
    grossLoan: numberOf(loan.GrossLoan),
    interestRate: numberOf(loan.InterestRate),
  };
}

const text = (value: number | null) => (value === null ? '' : String(Math.round(value)));

/**
 * Where the wizard starts: the signed-in user's name and email, and, when an offer was chosen for
 * this loan type, its gross loan, the search's term (commercial terms are in years), address and value.
 */
export function initialValues(
  user: { name?: string; email?: string } | null,
  pending: PendingApplication | null,
): WizardValues {
  const form = pending?.formData ?? {};
  const termYears = numberOf(form.mortgageTerm);
  const termMonths = numberOf(form.loanTerm) ?? (termYears === null ? null : termYears * 12);
  return {
    loanAmount: pending ? text(numberOf(pending.selectedLoan.GrossLoan)) : '',
    loanTerm: text(termMonths),
    loanPurpose: '',
    exitStrategy: '',
    fullName: user?.name ?? '',
    email: user?.email ?? '',
    phone: '',
    companyName: '',
    companyNumber: '',
    propertyAddress: typeof form.propertyAddress === 'string' ? form.propertyAddress : '',
    propertyType: '',
    propertyValue: text(numberOf(form.currentValue) ?? numberOf(form.purchasePrice)),
    annualIncome: '',
    existingDebt: '',
    creditScore: '',
    additionalInfo: '',
  };
}

/** The wizard's form: the answers as typed, and the loan type of the address (checked, not edited). */
export type ApplicationForm = WizardValues & { loanType: string };
export type ApplicationField = keyof ApplicationForm;

/** The fields the wizard checks, in the order the steps show them. */
export const APPLICATION_FIELDS = Object.keys(FIELD_STEP) as ApplicationField[];

/**
 * The check at submit: the dip service's own schema for each field the wizard holds. Who applies,
 * which search and which offer are not the applicant's to correct, so they are left to the service.
 */
export const applicationFormSchema = dipApplicationBodySchema.pick(
  Object.fromEntries(APPLICATION_FIELDS.map((field) => [field, true])) as Record<ApplicationField, true>,
);

/**
 * The form's resolver: the first message of each field, and, once every field passes, the answers
 * exactly as typed (raw), since the service parses the body itself. The schema takes any value for
 * most fields; the form only ever holds text, which is why the resolver is typed by the form.
 */
export const applicationFormResolver = zodResolver(applicationFormSchema, undefined, {
  raw: true,
}) as Resolver<ApplicationForm>;

/** The problems listed on the review step: each field's message, in the order the steps show them. */
export function errorSummary(errors: FieldErrors<ApplicationForm>): Array<[ApplicationField, string]> {
  return APPLICATION_FIELDS.flatMap((field): Array<[ApplicationField, string]> => {
    const message = errors[field]?.message;
    return message ? [[field, message]] : [];
  });
}

/** The POST /api/dip-applications body: the answers plus who, which search, the type and the offer. */
export function applicationPayload(
  form: ApplicationForm,
  context: { userId: string; pending: PendingApplication | null },
): Record<string, unknown> {
  const { loanType, ...answers } = form;
  return {
    ...answers,
    userId: context.userId,
    searchId: context.pending?.searchId,
    loanType,
    loanData: context.pending?.selectedLoan,
  };
}

const labelOf = (options: ReadonlyArray<{ value: string; label: string }>, value: string) =>
  options.find((option) => option.value === value)?.label ?? '—';
const money = (value: string) => (value.trim() === '' ? '—' : formatCurrency(value));

/** The review step's rows: the loan type and each answer as read back, a dash for one not given. */
export function reviewRows(values: ApplicationForm): Array<[string, string]> {
  return [
    ['Loan type', values.loanType ? capitalise(values.loanType) : '—'],
    ['Loan amount', money(values.loanAmount)],
    ['Loan term', values.loanTerm ? `${values.loanTerm} months` : '—'],
    ['Loan purpose', labelOf(LOAN_PURPOSE_OPTIONS, values.loanPurpose)],
    ['Exit strategy', labelOf(EXIT_STRATEGY_OPTIONS, values.exitStrategy)],
    ['Full name', values.fullName || '—'],
    ['Email', values.email || '—'],
    ['Phone', values.phone || '—'],
    ['Company name', values.companyName || '—'],
    ['Company number', values.companyNumber || '—'],
    ['Property address', values.propertyAddress || '—'],
    ['Property type', labelOf(PROPERTY_TYPE_OPTIONS, values.propertyType)],
    ['Property value', money(values.propertyValue)],
    ['Annual income', money(values.annualIncome)],
    ['Existing debt', money(values.existingDebt)],
    ['Credit score', labelOf(CREDIT_SCORE_OPTIONS, values.creditScore)],
    ['Additional information', values.additionalInfo || '—'],
  ];
}
