import { zodResolver } from '@hookform/resolvers/zod';
import {
  IDENTITY_MESSAGES,
  type PendingLendabilityScore,
  resendVerificationBodySchema,
  type ResendVerificationBody,
} from '@lsp/contracts';
import {
  Button,
  CheckIcon,
  LendabilityScoreCard,
  TextField,
  resendVerificationEmail,
  useToast,
} from '@lsp/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

interface VerifyEmailGateProps {
  count: number;
  onNewSearch: () => void;
  /** The address the lead gave: the resend form starts with it. */
  email?: string;
  /** The Lendability Score the lead was given, shown after it. */
  lendabilityScore?: PendingLendabilityScore | null;
}

/**
 * The resend form (POST /api/auth/resend-verification and its messages). Identity answers the same
 * for every address, so 'Email Sent' does not say whether an account exists.
 */
export function ResendVerificationForm({ defaultEmail }: { defaultEmail: string }) {
  const { toast } = useToast();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResendVerificationBody>({
    resolver: zodResolver(resendVerificationBodySchema),
    defaultValues: { email: defaultEmail },
  });

  const onInvalid = () => {
    toast({
      title: IDENTITY_MESSAGES.resendEmailRequiredTitle,
      description: IDENTITY_MESSAGES.resendEmailRequired,
      variant: 'error',
    });
  };

  const onSubmit = async (values: ResendVerificationBody) => {
    toast(await resendVerificationEmail(values));
  };

  return (
    <form
      className="sr-gate__resend"
      onSubmit={handleSubmit(onSubmit, onInvalid)}
      noValidate
      aria-labelledby="gate-resend-title"
    >
      <h3 id="gate-resend-title" className="sr-section-title">
        Send a new verification link
      </h3>
      <TextField
        label="Email address"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" loading={isSubmitting} loadingText="Sending...">
        Send verification email
      </Button>
    </form>
  );
}

/** Shown on the home page instead of results while unexpired pending results wait for verification. */
export function VerifyEmailGate({ count, onNewSearch, email, lendabilityScore }: VerifyEmailGateProps) {
  const [resendOpen, setResendOpen] = useState(false);
  const steps = [
    { label: 'Email sent', state: 'done' },
    { label: 'Awaiting verification', state: 'current' },
    { label: 'Results unlocked', state: 'waiting' },
  ] as const;
  return (
    <>
      <section className="sr-gate ui-card ui-card--raised" aria-labelledby="verify-gate-title">
        <h2 id="verify-gate-title" className="sr-section-title">
          Verify your email to see your results
        </h2>
        <p className="sr-gate__count">
          We found <strong>{count === 1 ? '1 lender option' : `${count} lender options`}</strong> for your
          project.
        </p>
        <p className="ui-muted">
          Open the verification link we emailed you. Your results unlock as soon as your address is confirmed,
          and stay held for one hour.
        </p>
        <ol className="sr-gate__steps">
          {steps.map((step) => (
            <li
              key={step.label}
              className={`sr-gate__step sr-gate__step--${step.state}`}
              aria-current={step.state === 'current' ? 'step' : undefined}
            >
              <span className="sr-gate__dot" aria-hidden="true">
                {step.state === 'done' ? <CheckIcon width={14} height={14} /> : null}
              </span>
              {step.label}
              {step.state === 'done' && <span className="ui-visually-hidden"> (done)</span>}
            </li>
          ))}
        </ol>
        <div className="ui-row">
          <Button
            variant="secondary"
            aria-expanded={resendOpen}
            aria-controls="gate-resend"
            onClick={() => setResendOpen((open) => !open)}
          >
            Resend verification email
          </Button>
          <Button variant="ghost" onClick={onNewSearch}>
            Start a new search
          </Button>
        </div>
        <div id="gate-resend" hidden={!resendOpen}>
          {resendOpen && <ResendVerificationForm defaultEmail={email ?? ''} />}
        </div>
      </section>
      {lendabilityScore && (
        <LendabilityScoreCard
          className="sr-lendability"
          score={lendabilityScore.score}
          tips={lendabilityScore.tips}
        />
      )}
    </>
  );
}
