import { formatCurrency, formatInterestPm } from '@lsp/contracts';
import { Card, buttonClass } from '@lsp/ui';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { readLoanOffer } from '../lib/loan-offer';
import { LOAN_TYPE_INFO } from '../lib/loan-type';
import { readPendingApplication } from '../lib/pending-application';
import { browserStorage } from '../lib/storage-keys';
import { lenderTitle } from '../results/offer-format';

/**
 * /application: continue with the offer chosen from a result (Continue Application, Details). The
 * five-step DIP application itself lives at /dip/{loanType}/1.
 */
export function ApplicationPage() {
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
  const offer = readLoanOffer(application.selectedLoan, application.formData);
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
          <div>
            <dt>Lender</dt>
            <dd>{lenderTitle(offer)}</dd>
          </div>
          <div>
            <dt>Gross loan</dt>
            <dd>{formatCurrency(offer.grossLoan)}</dd>
          </div>
          <div>
            <dt>Net loan</dt>
            <dd>{formatCurrency(offer.netLoan)}</dd>
          </div>
          <div>
            <dt>Interest rate</dt>
            <dd>{formatInterestPm(offer.interestRate)}</dd>
          </div>
        </dl>
        <p className="ui-muted">
          The Decision in Principle application takes five short steps: loan details, applicant, property,
          finances and a final review.
        </p>
        <div className="ui-row">
          <Link to={`/dip/${application.loanType}/1`} className={buttonClass('brand', 'lg')}>
            Start DIP Application
          </Link>
          <Link to="/" className={buttonClass('secondary', 'lg')}>
            Compare More Loans
          </Link>
        </div>
      </Card>
    </div>
  );
}
