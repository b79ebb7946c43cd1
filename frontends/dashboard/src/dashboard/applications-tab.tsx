// The Applications tab: address, date, amount in GBP, a status badge and View Details. The
// spec gives View Details no action; here it unfolds what the platform holds of the application.
import { Badge, Button, Card, Fact } from '@lsp/ui';
import { useState } from 'react';
import { formatDate, formatGbp, loanTypeLabel } from '../format';
import type { ApplicationItem } from './queries';

function statusBadge(status: string) {
  if (status === 'submitted') return <Badge variant="info">Submitted</Badge>;
  if (status === 'processing') return <Badge variant="warning">Processing</Badge>;
  return <Badge>{status}</Badge>;
}

export function ApplicationsTab({ applications }: { applications: ApplicationItem[] }) {
  const [open, setOpen] = useState<string | null>(null);
  if (applications.length === 0) {
    return (
      <Card title="No applications yet" headingLevel={3}>
        <p>Apply for a Decision in Principle from one of your search results and it will be listed here.</p>
      </Card>
    );
  }
  return (
    <ul className="dash-list">
      {applications.map((application) => (
        <li key={application.id} className="dash-item">
          <div className="dash-item__body">
            <h3 className="dash-item__title">
              {application.property_address || 'Property address not given'}
            </h3>
            <p className="ui-muted dash-item__meta">
              <span>{formatDate(application.created_at)}</span>
              <span>{formatGbp(application.loan_amount)}</span>
            </p>
            {statusBadge(application.status)}
            {open === application.id && <ApplicationDetails application={application} />}
          </div>
          <div className="dash-item__actions">
            <Button
              variant="secondary"
              size="sm"
              aria-expanded={open === application.id}
              aria-controls={`application-${application.id}`}
              onClick={() => setOpen(open === application.id ? null : application.id)}
            >
              {open === application.id ? 'Hide Details' : 'View Details'}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function ApplicationDetails({ application }: { application: ApplicationItem }) {
  const kind = application.kind === 'loan-application' ? 'Loan application' : 'DIP application';
  const loanType = application.loan_type ? loanTypeLabel(application.loan_type) : 'Not given';
  return (
    <dl id={`application-${application.id}`} className="dash-facts">
      <Fact label="Reference" value={application.id} />
      <Fact label="Kind" value={kind} />
      <Fact label="Loan type" value={loanType} />
      <Fact label="Amount" value={formatGbp(application.loan_amount)} />
      <Fact label="Submitted" value={formatDate(application.created_at)} />
      <Fact label="Status" value={application.status} />
    </dl>
  );
}
