// The Shared with me tab: DIP badge, address, quote code, New/Viewed (an expired item,
// which can no longer be opened, is not New: the unread count leaves it out too), Expired, net loan,
// rate, 'Shared by' (default 'Partner'), share date and message; View DIP (disabled when expired,
// marks the share viewed), Download PDF and View Details (to /dip/view/{slug}; both hidden when
// expired); loading, error with Try Again, empty.
import {
  Alert,
  Badge,
  Button,
  Card,
  Spinner,
  VerifyEmailNotice,
  buttonClass,
  callApi,
  isVerificationRequired,
  useToast,
  Fact,
} from '@lsp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { formatRatePerAnnum } from '@lsp/contracts/src/display/format';
import { formatDate, formatGbp } from '../format';
import { sharedReadBadge } from './dip-display';
import { downloadDipPdf } from './pdf';
import { pdfDownloadToast } from './pdf-toast';
import { PdfDownloadButton } from './pdf-download-button';
import { sharedKey, unreadKey, useShared } from './queries';
import type { SharedItem } from './queries';

export function SharedTab({
  highlightDipId,
  onView,
}: {
  highlightDipId?: string | null;
  onView: (item: SharedItem) => void;
}) {
  const shared = useShared();
  const queryClient = useQueryClient();
  const { toast } = useToast();

  if (shared.isPending) {
    return (
      <div className="ui-row" role="status">
        <Spinner /> <span>Loading shared DIPs...</span>
      </div>
    );
  }
  // Not verified yet: nothing shared with this address opens until it is (the banner offers the resend).
  if (shared.isError && isVerificationRequired(shared.error)) return <VerifyEmailNotice resend={false} />;
  if (shared.isError) {
    return (
      <Alert variant="danger" title="Could not load shared deals">
        <p>Failed to load shared DIPs. Please try again.</p>
        <Button size="sm" variant="secondary" onClick={() => void shared.refetch()}>
          Try Again
        </Button>
      </Alert>
    );
  }
  const items = shared.data ?? [];
  if (items.length === 0) {
    return (
      <Card title="Nothing shared with you yet" headingLevel={3}>
        <p>When someone shares a Decision in Principle with your email address it appears here.</p>
      </Card>
    );
  }

  const view = async (item: SharedItem) => {
    onView(item);
    if (!item.isViewed) {
      await callApi('markShareViewed', { params: { shareId: item.shareId } }).catch(() => undefined);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: sharedKey }),
        queryClient.invalidateQueries({ queryKey: unreadKey }),
      ]);
    }
  };
  const download = async (item: SharedItem) => {
    const outcome = await downloadDipPdf(item.quoteCode, item.quoteCode);
    toast(pdfDownloadToast(outcome, { failed: 'Failed to download PDF. Please try again.' }));
    return outcome;
  };

  return (
    <ul className="dash-list">
      {items.map((item) => (
        <li
          key={item.shareId}
          className="dash-item"
          data-highlighted={highlightDipId && highlightDipId === item.dipId ? 'true' : undefined}
        >
          <div className="dash-item__body">
            <div className="ui-row dash-item__title-row">
              <Badge variant="brand">DIP</Badge>
              <h3 className="dash-item__title">
                {item.snapshot?.propertyAddress || 'Decision in Principle'}
              </h3>
            </div>
            <p className="ui-muted dash-item__meta">
              <span>{item.quoteCode}</span>
              {sharedReadBadge(item) === 'Viewed' && <Badge>Viewed</Badge>}
              {sharedReadBadge(item) === 'New' && <Badge variant="info">New</Badge>}
              {item.isExpired && <Badge variant="danger">Expired</Badge>}
            </p>
            <dl className="dash-facts">
              <Fact label="Net loan" value={formatGbp(item.snapshot?.netLoan)} />
              <Fact label="Rate" value={formatRatePerAnnum(item.snapshot?.interestRate)} />
              <Fact label="Shared by" value={item.sharedBy || 'Partner'} />
              <Fact label="Shared on" value={formatDate(item.sharedAt)} />
            </dl>
            {item.message && <p className="dash-item__message">“{item.message}”</p>}
          </div>
          <div className="dash-item__actions">
            <Button
              size="sm"
              disabled={item.isExpired}
              onClick={() => void view(item)}
              aria-label={`View DIP ${item.quoteCode}`}
            >
              View DIP
            </Button>
            {!item.isExpired && (
              <PdfDownloadButton
                size="sm"
                variant="secondary"
                run={() => download(item)}
                aria-label={`Download PDF of ${item.quoteCode}`}
              />
            )}
            {!item.isExpired && item.shareSlug && (
              // 'Shared DIP page': View Details next to Download PDF, to /dip/view/{slug}.
              <a
                href={`/dip/view/${encodeURIComponent(item.shareSlug)}`}
                className={buttonClass('ghost', 'sm')}
                aria-label={`View Details of ${item.quoteCode}`}
              >
                View Details
              </a>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
