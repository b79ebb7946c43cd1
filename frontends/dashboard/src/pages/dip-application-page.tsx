// /dip/{loanType}/{id}: the five-step DIP application wizard. A progress
// bar, the selected-loan banner, the loan type's title, description and tip; Previous/Next move
// freely (no validation on Next); Submit checks every field with the validation messages, lists them and
// marks each field; it posts to /api/dip-applications ('Submitting...'), and on success toasts and
// goes to /dashboard. Any failure is the failure toast; the server's own text is never shown.
import { STORAGE_KEYS, formatCurrency, formatInterestAnnual, formatInterestPm } from '@lsp/contracts';
import {
  Alert,
  Button,
  Card,
  Select,
  TextField,
  callApi,
  type ApiInput,
  sanitiseNumberInput,
  useSession,
  Fact,
  TextAreaField,
  useApplicationSubmit,
} from '@lsp/ui';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import {
  CREDIT_SCORE_OPTIONS,
  EXIT_STRATEGY_OPTIONS,
  FIELD_STEP,
  LAST_STEP,
  LOAN_PURPOSE_OPTIONS,
  PROPERTY_TYPE_OPTIONS,
  WHAT_HAPPENS_NEXT,
  WIZARD_STEPS,
  applicationFormResolver,
  applicationPayload,
  copyFor,
  errorSummary,
  initialValues,
  readPendingApplication,
  reviewRows,
  selectedLoanSummary,
} from './dip-application-form';
import type { ApplicationForm, PendingApplication, WizardField } from './dip-application-form';
import './dip-application.css';

const fieldId = (field: string) => `dip-app-${field}`;

function SelectedLoanBanner({ pending }: { pending: PendingApplication | null }) {
  if (!pending) {
    return (
      <Alert variant="info" title="No loan selected">
        You can still apply; to attach a lender&apos;s offer, choose Apply Now on one of your search results.
      </Alert>
    );
  }
  const loan = selectedLoanSummary(pending.selectedLoan);
  const rate =
    pending.loanType === 'commercial'
      ? formatInterestAnnual(loan.interestRate)
      : formatInterestPm(loan.interestRate);
  return (
    <section className="dip-app__banner" aria-label="Selected loan">
      <p className="dip-app__banner-label">Selected loan</p>
      <p className="dip-app__banner-lender">{loan.lender}</p>
      <dl className="dip-app__banner-figures">
        <Fact label="Gross loan" value={formatCurrency(loan.grossLoan)} />
        <Fact label="Interest rate" value={rate} />
      </dl>
    </section>
  );
}

function ProgressBar({ step }: { step: number }) {
  const percent = Math.round(((step + 1) / WIZARD_STEPS.length) * 100);
  return (
    <div className="dip-app__progress">
      <p className="dip-app__progress-text">
        Step {step + 1} of {WIZARD_STEPS.length}: {WIZARD_STEPS[step]}
      </p>
      <div
        className="dip-app__progress-track"
        role="progressbar"
        aria-label="Application progress"
        aria-valuemin={1}
        aria-valuemax={WIZARD_STEPS.length}
        aria-valuenow={step + 1}
        aria-valuetext={`Step ${step + 1} of ${WIZARD_STEPS.length}: ${WIZARD_STEPS[step]}`}
      >
        <div className="dip-app__progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <ol className="dip-app__steps">
        {WIZARD_STEPS.map((name, index) => (
          <li
            key={name}
            className="dip-app__step"
            data-state={index < step ? 'done' : index === step ? 'current' : 'todo'}
            aria-current={index === step ? 'step' : undefined}
          >
            <span className="dip-app__step-number" aria-hidden="true">
              {index + 1}
            </span>
            <span className="dip-app__step-name">{name}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Review({ control }: { control: Control<ApplicationForm> }) {
  const rows = useWatch({ control, compute: reviewRows });
  return (
    <dl className="dip-app__review">
      {rows.map(([label, value]) => (
        <Fact key={label} label={label} value={value} />
      ))}
    </dl>
  );
}

/**
 * A whole number (an amount, a term) typed as digits only: commas, a pasted £ or spaces are dropped
 * as they are typed. Changing it drops its message, as every field's change does.
 */
function WholeNumberField({
  name,
  control,
  onEdit,
  ...field
}: {
  name: WizardField;
  control: Control<ApplicationForm>;
  onEdit: (name: WizardField) => void;
  label: string;
  prefix?: string;
  required?: boolean;
}) {
  const { field: input, fieldState } = useController({ name, control });
  return (
    <TextField
      {...field}
      id={fieldId(name)}
      name={name}
      inputMode="numeric"
      autoComplete="off"
      ref={input.ref}
      value={input.value}
      error={fieldState.error?.message}
      onBlur={input.onBlur}
      onChange={(event) => {
        input.onChange(sanitiseNumberInput(event.target.value, false).replace(/,/g, ''));
        onEdit(name);
      }}
    />
  );
}

export function DipApplicationPage() {
  const { loanType = '' } = useParams();
  const { user } = useSession();
  const navigate = useNavigate();
  const { submitting, submit: sendApplication } = useApplicationSubmit();
  const [pending] = useState(() => {
    const stored = readPendingApplication(localStorage.getItem(STORAGE_KEYS.pendingApplication));
    // An offer chosen for another loan type does not belong to this application.
    return stored && stored.loanType === loanType ? stored : null;
  });
  const {
    control,
    register,
    handleSubmit,
    clearErrors,
    formState: { errors, submitCount },
  } = useForm<ApplicationForm>({
    resolver: applicationFormResolver,
    defaultValues: { ...initialValues(user, pending), loanType },
    // Only the current step's fields are on the page: the summary of problems takes the focus instead.
    shouldFocusError: false,
    // A field's message stays until the field is changed, which drops it; the next check is at submit.
    reValidateMode: 'onSubmit',
  });
  const [step, setStep] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const focusAfterMove = useRef<string | null>(null);
  const moved = useRef(false);
  const copy = copyFor(loanType);

  // After a step change, focus the new step's heading (or the field an error link pointed at).
  useEffect(() => {
    if (!moved.current) return;
    const target = focusAfterMove.current;
    focusAfterMove.current = null;
    if (target) document.getElementById(fieldId(target))?.focus();
    else headingRef.current?.focus();
  }, [step]);

  // After each check at submit the summary of problems takes the focus; it is there only when there are
  // problems. The count of checks and their errors reach the page in the same render.
  useEffect(() => {
    if (submitCount > 0) summaryRef.current?.focus();
  }, [submitCount]);

  const goTo = (next: number, focusField?: string) => {
    moved.current = true;
    focusAfterMove.current = focusField ?? null;
    if (next === step && focusField) document.getElementById(fieldId(focusField))?.focus();
    setStep(Math.max(0, Math.min(LAST_STEP, next)));
  };

  // Changing a field drops its message.
  const textProps = (name: WizardField) => ({
    id: fieldId(name),
    error: errors[name]?.message,
    ...register(name, { onChange: () => clearErrors(name) }),
  });
  const numberProps = (name: WizardField) => ({ name, control, onEdit: clearErrors });

  // Problems are listed on the review step, where submit is; the effect above focuses the list.
  const submit = (userId: string) =>
    handleSubmit(async (form) => {
      const payload = applicationPayload(form, { userId, pending });
      // The resolver checked the form against the schema the service validates with.
      const body = payload as ApiInput<'submitDipApplication'>['body'];
      await sendApplication(() => callApi('submitDipApplication', { body }), userId, {
        description: 'Your DIP application has been submitted. We will contact you within 24 hours.',
        then: () => navigate('/dashboard'),
      });
    })();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    if (step < LAST_STEP) goTo(step + 1);
    else if (user) void submit(user.id);
  };

  const errorList = errorSummary(errors);

  return (
    <div className="ui-container dash-page dip-app">
      <header className="dip-app__header">
        <h1>{copy.title}</h1>
        <p className="ui-muted">{copy.description}</p>
      </header>
      <SelectedLoanBanner pending={pending} />
      <ProgressBar step={step} />
      <form className="dip-app__form" onSubmit={onSubmit} noValidate aria-labelledby="dip-app-step-title">
        <Card as="div" raised className="dip-app__card">
          <h2 id="dip-app-step-title" ref={headingRef} tabIndex={-1} className="dip-app__step-title">
            {WIZARD_STEPS[step]}
          </h2>
          {step === 0 && (
            <div className="dip-app__grid">
              <WholeNumberField label="Loan amount" prefix="£" required {...numberProps('loanAmount')} />
              <WholeNumberField label="Loan term (months)" required {...numberProps('loanTerm')} />
              <Select
                label="Loan purpose"
                placeholder="Select a purpose"
                options={LOAN_PURPOSE_OPTIONS}
                {...textProps('loanPurpose')}
              />
              <Select
                label="Exit strategy"
                placeholder="Select an exit strategy"
                options={EXIT_STRATEGY_OPTIONS}
                {...textProps('exitStrategy')}
              />
            </div>
          )}
          {step === 1 && (
            <div className="dip-app__grid">
              <TextField label="Full name" required autoComplete="name" {...textProps('fullName')} />
              <TextField label="Email" type="email" required autoComplete="email" {...textProps('email')} />
              <TextField label="Phone" type="tel" required autoComplete="tel" {...textProps('phone')} />
              <TextField
                label="Company name (optional)"
                autoComplete="organization"
                {...textProps('companyName')}
              />
              <TextField label="Company number (optional)" {...textProps('companyNumber')} />
            </div>
          )}
          {step === 2 && (
            <div className="dip-app__grid">
              <TextField
                label="Property address"
                required
                autoComplete="street-address"
                fieldClassName="dip-app__wide"
                {...textProps('propertyAddress')}
              />
              <Select
                label="Property type"
                placeholder="Select a property type"
                options={PROPERTY_TYPE_OPTIONS}
                {...textProps('propertyType')}
              />
              <WholeNumberField label="Property value" prefix="£" {...numberProps('propertyValue')} />
            </div>
          )}
          {step === 3 && (
            <div className="dip-app__grid">
              <WholeNumberField label="Annual income" prefix="£" {...numberProps('annualIncome')} />
              <WholeNumberField label="Existing debt" prefix="£" {...numberProps('existingDebt')} />
              <Select
                label="Credit score range"
                placeholder="Select a range"
                options={CREDIT_SCORE_OPTIONS}
                {...textProps('creditScore')}
              />
              <TextAreaField
                label="Additional information"
                fieldClassName="dip-app__wide"
                className="dip-app__textarea"
                rows={4}
                id={fieldId('additionalInfo')}
                {...register('additionalInfo', { onChange: () => clearErrors('additionalInfo') })}
              />
            </div>
          )}
          {step === LAST_STEP && (
            <div className="ui-stack">
              {errorList.length > 0 && (
                <div
                  ref={summaryRef}
                  tabIndex={-1}
                  className="dip-app__errors"
                  role="alert"
                  aria-labelledby="dip-app-errors-title"
                >
                  <h3 id="dip-app-errors-title">Please check your application</h3>
                  <ul>
                    {errorList.map(([name, message]) => (
                      <li key={name}>
                        {name === 'loanType' ? (
                          message
                        ) : (
                          <button
                            type="button"
                            className="dip-app__error-link"
                            onClick={() => goTo(FIELD_STEP[name], name)}
                          >
                            {message}
                          </button>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <Review control={control} />
              <section className="dip-app__next" aria-labelledby="dip-app-next-title">
                <h3 id="dip-app-next-title">What happens next</h3>
                <ol>
                  {WHAT_HAPPENS_NEXT.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ol>
              </section>
            </div>
          )}
          <p className="dip-app__tip">
            <strong>Tip:</strong> {copy.tip}
          </p>
          <div className="dip-app__actions">
            <Button
              type="button"
              variant="secondary"
              disabled={step === 0 || submitting}
              onClick={() => goTo(step - 1)}
            >
              Previous
            </Button>
            {step < LAST_STEP ? (
              <Button type="submit" variant="primary">
                Next
              </Button>
            ) : (
              <Button type="submit" variant="brand" loading={submitting} loadingText="Submitting...">
                Submit Application
              </Button>
            )}
          </div>
        </Card>
      </form>
    </div>
  );
}
