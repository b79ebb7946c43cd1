// /dip/{slug} ('Online DIP page'): 'Indicative Terms – DIP' with Copy Quote Code, Back and
// Download PDF; greeting; chips; key figures; Loan Details and Project Details cards; the Special
// Offer banner; the disclaimer; a skeleton while loading; the not-found text with Return to Dashboard.
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  VerifyEmailNotice,
  buttonClass,
  isVerificationRequired,
  useSession,
  useToast,
  Fact,
} from '@lsp/ui';
import { STORAGE_KEYS, formatCurrency2dp, formatRatePerAnnum } from '@lsp/contracts';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { copyText } from '../dashboard/clipboard';
import { useDipDetail } from '../dashboard/dip-query';
import { downloadDipPdf } from '../dashboard/pdf';
import { pdfDownloadToast } from '../dashboard/pdf-toast';
import { PdfDownloadButton } from '../dashboard/pdf-download-button';
import { ProductChangeNotice } from '../dashboard/product-change-notice';
import { mortgageTermText, percentToFraction, validityLabel } from '../dashboard/dip-display';
import { formatDate, formatGbp } from '../format';
import { sendToLogin } from './auth-redirect';
import './online-dip-print.css';

const pct = (value: number | null | undefined, digits: number) =>
  value == null || !Number.isFinite(value) ? '—' : `${value.toFixed(digits)}%`;

export function OnlineDipPage() {
  const { slug = '' } = useParams();
  const { status: session } = useSession();
  const navigate = useNavigate();
  const { toast } = useToast();
  const query = useDipDetail('getDip', session === 'authenticated' ? { params: { reference: slug } } : null);
  const status = query.error instanceof ApiError ? query.error.status : 0;

  useEffect(() => {
    if (session === 'anonymous' || status === 401) {
      localStorage.setItem(STORAGE_KEYS.pendingDipSlug, slug);
      sendToLogin();
    }
  }, [session, status, slug]);

  if (session !== 'authenticated' || query.isPending) {
    return (
      <div className="ui-container dash-page" role="status" aria-label="Loading DIP">
        <div className="dip-skeleton">
          {[0, 1, 2].map((i) => (
            <div key={i} className="dip-skeleton__block" />
          ))}
        </div>
      </div>
    );
  }
  // By share slug the service answers the online DIP page; by id it answers the owner's view, which
  // this page does not show.
  const dip = query.data && !('dip' in query.data) ? query.data : null;
  if (query.isError && isVerificationRequired(query.error)) {
    return (
      <div className="ui-container dash-page dash-narrow">
        <h1>Indicative Terms – DIP</h1>
        <VerifyEmailNotice resend={false} />
        <Link to="/dashboard" className={buttonClass('primary')}>
          Return to Dashboard
        </Link>
      </div>
    );
  }
  if (query.isError || !dip) {
    const notFound = [403, 404, 410].includes(status);
    return (
      <div className="ui-container dash-page dash-narrow">
        <h1>Indicative Terms – DIP</h1>
        <Alert variant="danger" title={notFound ? 'DIP not found' : 'Unable to load DIP'}>
          {notFound
            ? "We couldn't find that DIP. It may be expired or you don't have access."
            : `Unable to load DIP. Please try again later. (Error ${status})`}
        </Alert>
        <Link to="/dashboard" className={buttonClass('primary')}>
          Return to Dashboard
        </Link>
      </div>
    );
  }

  const mortgageTerm = mortgageTermText(dip.loan.mortgageTermYears ?? dip.project.mortgageTermYears);
  const copyQuote = async () => {
    if (await copyText(dip.quoteCode))
      toast({ title: 'Copied', description: dip.quoteCode, variant: 'success' });
    else toast({ title: 'Copy Failed', description: 'Unable to copy quote code', variant: 'error' });
  };
  const download = async () => {
    const outcome = await downloadDipPdf(dip.quoteCode, dip.quoteCode);
    toast(
      pdfDownloadToast(outcome, {
        failed: 'Failed to download PDF. Please try again.',
        auth: 'Please log in to download PDFs.',
      }),
    );
    return outcome;
  };

  return (
    <div className="ui-container dash-page online-dip">
      <header className="dash-header">
        <h1>Indicative Terms – DIP</h1>
        <div className="dash-item__actions">
          <Button variant="secondary" size="sm" onClick={() => void copyQuote()}>
            Copy Quote Code
          </Button>
          <Button variant="ghost" size="sm" onClick={() => navigate(-1)}>
            Back
          </Button>
          <PdfDownloadButton size="sm" run={download} />
        </div>
      </header>
      <p className="online-dip__greeting">
        Dear {[dip.borrowerSalutation, dip.borrowerName].filter(Boolean).join(' ') || 'Client'},
      </p>
      <ul className="online-dip__chips" aria-label="Summary">
        <li>
          <Badge>{dip.projectCity}</Badge>
        </li>
        <li>
          <Badge variant="info">{validityLabel(dip.validityHours)}</Badge>
        </li>
        <li>
          <Badge variant="brand">{dip.quoteCode}</Badge>
        </li>
        <li>
          <Badge>{dip.productType}</Badge>
        </li>
        {/* The Regulated chip always says which; the panel's products are not. */}
        <li>{dip.regulated ? <Badge variant="warning">Regulated</Badge> : <Badge>Not regulated</Badge>}</li>
      </ul>
      <p className="ui-muted">Generated on {formatDate(dip.generatedOn)}</p>
      {/* Set for the DIP's owner only: someone it was shared with sees the DIP as issued. */}
      <ProductChangeNotice productChange={dip.productChange} />
      {dip.promoEligibleZeroBrokerFee && (
        <Alert variant="success" title="Special Offer">
          Zero broker fees for 6 months on this deal.
        </Alert>
      )}
      <div className="online-dip__figures">
        <div>
          <span className="ui-muted">Net loan</span>
          <strong>{formatGbp(dip.loan.netLoan)}</strong>
        </div>
        <div>
          <span className="ui-muted">Monthly payment</span>
          <strong>{formatCurrency2dp(dip.loan.monthlyPayment)}</strong>
        </div>
        <div>
          <span className="ui-muted">Interest rate</span>
          <strong>{formatRatePerAnnum(percentToFraction(dip.loan.interestRatePct))}</strong>
        </div>
      </div>
      <div className="online-dip__cards">
        <Card title="Loan Details" headingLevel={2}>
          <dl className="dash-facts">
            <Fact label="Arrangement fee" value={pct(dip.loan.arrangementFeePct, 1)} />
            <Fact label="Deposit required" value={formatGbp(dip.loan.depositRequired)} />
            <Fact label="LTV" value={pct(dip.loan.ltvPct, 1)} />
            {/* Bridging and development loans are not mortgages: no term row rather than a dash. */}
            {mortgageTerm && <Fact label="Mortgage term" value={mortgageTerm} />}
          </dl>
        </Card>
        <Card title="Project Details" headingLevel={2}>
          <dl className="dash-facts">
            <Fact label="Location" value={dip.project.location} />
            <Fact label="Property type" value={dip.project.propertyType} />
            <Fact label="Property value" value={formatGbp(dip.project.propertyValue)} />
            <Fact
              label="Owner occupied"
              value={dip.project.ownerOccupied == null ? '—' : dip.project.ownerOccupied ? 'Yes' : 'No'}
            />
            <Fact label="Borrowing entity" value={dip.project.borrowingEntity} />
            {mortgageTerm && <Fact label="Mortgage term" value={mortgageTerm} />}
          </dl>
        </Card>
      </div>
      <p className="ui-muted online-dip__disclaimer">
        These terms are indicative and non-binding. They are subject to underwriting, valuation, legal due
        diligence and lender approval.
      </p>
    </div>
  );
}
