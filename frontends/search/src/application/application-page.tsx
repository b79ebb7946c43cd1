import { formatCurrency, formatInterestPm, loanApplicationBodySchema } from '@lsp/contracts';
import {
  Button,
  Card,
  Checkbox,
  NumberField,
  RequireSession,
  TextField,
  callApi,
  buttonClass,
  sanitiseNumberInput,
  useSession,
  Fact,
  TextAreaField,
  useApplicationSubmit,
} from '@lsp/ui';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { readLoanOffer } from '../shared/loan-offer';
import { LOAN_TYPE_INFO } from '../shared/loan-type';
import { readPendingApplication, type PendingApplication } from './pending-application';
import { browserStorage } from '../shared/storage-keys';
import { lenderTitle } from '../results/offer-format';
import './application-page.css';

interface ApplicationValues {
  companyName: string;
  purchaseInLtd: boolean;
  ltdName: string;
  companyNumber: string;
  propertyAddress: string;
  purchasePrice: number | null;
  buildCosts: number | null;
  gdv: number | null;
  loanAmount: number | null;
  term: string;
  exitStrategy: string;
  creditStatus: string;
  brokerFee: number | null;
  additionalNotes: string;
}
type Field = keyof ApplicationValues;
type NumberKey = 'purchasePrice' | 'buildCosts' | 'gdv' | 'loanAmount' | 'brokerFee';
type Errors = Partial<Record<Field, string>>;

const FIELD_ORDER: Field[] = [
  'companyName',
  'purchaseInLtd',
  'ltdName',
  'companyNumber',
  'propertyAddress',
  'purchasePrice',
  'buildCosts',
  'gdv',
  'loanAmount',
  'term',
  'exitStrategy',
  'creditStatus',
  'brokerFee',
  'additionalNotes',
];
const fieldId = (field: Field) => `application-${field}`;

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.replace(/[,£\s]/g, ''));
  return Number.isFinite(n) ? n : null;
}
const whole = (value: number | null) => (value === null ? null : Math.round(value));

/** The form starts from the chosen offer and the search behind it. */
function startingValues(application: PendingApplication): ApplicationValues {
  const form = application.formData;
  const termYears = numberOf(form.mortgageTerm);
  const term = numberOf(form.loanTerm) ?? (termYears === null ? null : termYears * 12);
  return {
    companyName: '',
    purchaseInLtd: true,
    ltdName: '',
    companyNumber: '',
    propertyAddress: typeof form.propertyAddress === 'string' ? form.propertyAddress : '',
    purchasePrice: whole(numberOf(form.purchasePrice)),
    buildCosts: whole(numberOf(form.buildCost) ?? numberOf(form.buildCosts)),
    gdv: whole(numberOf(form.gdv)),
    loanAmount: whole(numberOf(application.selectedLoan.GrossLoan)),
    term: term === null ? '' : String(Math.round(term)),
    exitStrategy: '',
    creditStatus: '',
    brokerFee: null,
    additionalNotes: '',
  };
}

/** POST /api/applications: the loan_applications fields, the offer, the search's form and its id. */
function applicationBody(values: ApplicationValues, application: PendingApplication, userId: string) {
  return {
    ...values,
    ltdName: values.purchaseInLtd ? values.ltdName : '',
    userId,
    searchId: application.searchId,
    loanType: application.loanType,
    selectedLoan: application.selectedLoan,
    searchData: application.formData,
  };
}

function checkApplication(body: Record<string, unknown>): Errors {
  const parsed = loanApplicationBodySchema.safeParse(body);
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    if (FIELD_ORDER.includes(field) && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

function ApplicationForm({ application }: { application: PendingApplication }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { submitting, submit: sendApplication } = useApplicationSubmit();
  const [values, setValues] = useState(() => startingValues(application));
  const [errors, setErrors] = useState<Errors>({});

  const set = <K extends Field>(field: K, value: ApplicationValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      if (!current[field]) return current;
      const rest = { ...current };
      delete rest[field];
      return rest;
    });
  };
  const text = (field: Exclude<Field, 'purchaseInLtd' | NumberKey>) => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
  });
  const money = (field: NumberKey) => ({
    id: fieldId(field),
    name: field,
    prefix: '£',
    value: values[field],
    error: errors[field],
    onValueChange: (value: number | null) => set(field, value),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || submitting) return;
    const body = applicationBody(values, application, user.id);
    const found = checkApplication(body);
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) {
      document.getElementById(fieldId(first))?.focus();
      return;
    }
    await sendApplication(() => callApi('submitLoanApplication', { body }), user.id, {
      description: 'Your application has been submitted. We will contact you within 24 hours.',
      then: () => navigate('/dashboard?tab=applications'),
    });
  };

  return (
    <form className="ui-stack" onSubmit={submit} noValidate aria-label="Your application">
      <Card title="Your application" subtitle="Fields marked * are required.">
        <div className="sr-application-grid">
          <TextField
            label="Property address"
            required
            fieldClassName="sr-application-wide"
            {...text('propertyAddress')}
          />
          <NumberField label="Purchase price" {...money('purchasePrice')} />
          <NumberField label="Build costs" {...money('buildCosts')} />
          <NumberField label="Gross development value (GDV)" {...money('gdv')} />
          <NumberField label="Loan amount" {...money('loanAmount')} />
          <TextField
            label="Term (months)"
            inputMode="numeric"
            autoComplete="off"
            {...text('term')}
            onChange={(event) =>
              set('term', sanitiseNumberInput(event.target.value, false).replace(/,/g, ''))
            }
          />
          <TextField label="Exit strategy" {...text('exitStrategy')} />
          <TextField
            label="Credit status"
            hint="For example: clean, or any adverse history"
            {...text('creditStatus')}
          />
          <NumberField label="Broker fee" {...money('brokerFee')} />
          <TextField label="Company name (optional)" autoComplete="organization" {...text('companyName')} />
          <Checkbox
            label="Purchasing through a limited company"
            className="sr-application-wide"
            checked={values.purchaseInLtd}
            onChange={(event) => set('purchaseInLtd', event.target.checked)}
          />
          {values.purchaseInLtd && <TextField label="Limited company name" {...text('ltdName')} />}
          <TextField label="Company number (optional)" {...text('companyNumber')} />
          <TextAreaField
            label="Additional notes"
            id={fieldId('additionalNotes')}
            fieldClassName="sr-application-wide"
            name="additionalNotes"
            className="sr-application-notes"
            rows={4}
            value={values.additionalNotes}
            onChange={(event) => set('additionalNotes', event.target.value)}
          />
        </div>
        <p className="ui-muted">
          We will contact you within 24 hours; a decision typically takes 2-3 business days.
        </p>
        <div className="ui-row">
          <Button type="submit" variant="brand" size="lg" loading={submitting} loadingText="Submitting...">
            Submit Application
          </Button>
        </div>
      </Card>
    </form>
  );
}

/**
 * /application ('Continue application'): the offer chosen with Continue Application / Details, a
 * short application posted to POST /api/applications (status 'DIP Submitted'), and the way into the
 * five-step DIP application at /dip/{loanType}/1.
 */
function Application() {
  const [application] = useState(() => readPendingApplication(browserStorage()));
  if (!application) {
    return (
      <div className="ui-container sr-page">
        <h1 className="sr-page-title">No application in progress</h1>
        <Card subtitle="Choose an offer from your search results and press Continue Application to start.">
          <Link to="/" className={buttonClass('primary')}>
            Start a New Search
          </Link>
        </Card>
      </div>
    );
  }
  const offer = readLoanOffer(application.selectedLoan, application.formData, application.loanType);
  const projectName =
    typeof application.formData.projectName === 'string' ? application.formData.projectName : null;
  return (
    <div className="ui-container sr-page ui-stack">
      <h1 className="sr-page-title">Continue Your Application</h1>
      <Card
        title="Selected offer"
        subtitle={`${LOAN_TYPE_INFO[application.loanType].title}${projectName ? ` · ${projectName}` : ''}`}
        raised
      >
        <dl className="sr-summary">
          <Fact label="Lender" value={lenderTitle(offer)} />
          <Fact label="Gross loan" value={formatCurrency(offer.grossLoan)} />
          <Fact label="Net loan" value={formatCurrency(offer.netLoan)} />
          <Fact label="Interest rate" value={formatInterestPm(offer.interestRate)} />
        </dl>
        <p className="ui-muted">
          Apply below, or take the Decision in Principle application: five short steps covering loan details,
          applicant, property, finances and a final review.
        </p>
        <div className="ui-row">
          <Link to={`/dip/${application.loanType}/1`} className={buttonClass('secondary', 'lg')}>
            Start DIP Application
          </Link>
          <Link to="/" className={buttonClass('ghost', 'lg')}>
            Compare More Loans
          </Link>
        </div>
      </Card>
      <ApplicationForm application={application} />
    </div>
  );
}

export function ApplicationPage() {
  return (
    <RequireSession>
      <Application />
    </RequireSession>
  );
}
