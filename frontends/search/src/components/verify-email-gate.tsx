import { Button, CheckIcon } from '@lsp/ui';

/** Shown on the home page instead of results while unexpired pending results wait for verification. */
export function VerifyEmailGate({ count, onNewSearch }: { count: number; onNewSearch: () => void }) {
  const steps = [
    { label: 'Email sent', state: 'done' },
    { label: 'Awaiting verification', state: 'current' },
    { label: 'Results unlocked', state: 'waiting' },
  ] as const;
  return (
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
        <a className="ui-button ui-button--secondary" href="/verify-email">
          Resend verification email
        </a>
        <Button variant="ghost" onClick={onNewSearch}>
          Start a new search
        </Button>
      </div>
    </section>
  );
}
