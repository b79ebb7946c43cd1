// The owner and shared DIP modals: 'Decision in Principle' with Borrower, Property, Loan
// Details, Financial Summary and Important Notice; Close and Download PDF; a skeleton while loading;
// error panels Login Required, Access Denied, DIP Not Found, DIP Expired and Loading Failed (with
// Try Again), each with a short correlation id.
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Dialog,
  VerifyEmailNotice,
  isVerificationRequired,
  loginUrlFor,
  useToast,
  trackShareFunnel,
  Fact,
  type ApiResult,
} from '@lsp/ui';
import type { DipDetail, DipOwnerView, DipSharedView } from '@lsp/contracts';
import { formatRatePerAnnum } from '@lsp/contracts/src/display/format';
import { useEffect, useMemo, useRef } from 'react';
import { formatDate, formatGbp } from '../format';
import { sendToLogin } from '../pages/auth-redirect';
import { shortCorrelationId, useDipDetail } from './dip-query';
import { percentToFraction } from './dip-display';
import { DipSharesPanel } from './dip-shares';
import { downloadDipPdf } from './pdf';
import { pdfDownloadToast } from './pdf-toast';
import { PdfDownloadButton } from './pdf-download-button';
import { ProductChangeNotice } from './product-change-notice';

type Context = 'owner' | 'shared';

const MESSAGES: Record<number, { title: string; text: string }> = {
  401: { title: 'Login Required', text: 'Please log in to view this DIP.' },
  403: {
    title: 'Access Denied',
    text: "You don't have access to this DIP. Please contact the person who shared it with you.",
  },
  404: { title: 'DIP Not Found', text: 'DIP not found or may have been removed' },
  410: { title: 'DIP Expired', text: 'This DIP has expired and is no longer available' },
};

/** The DIP of a detail answer (the owner's view, or the shared view); null until it arrives. */
export function dipOf(
  body: ApiResult<'getDip'> | ApiResult<'getSharedDip'> | ApiResult<'openSharedDip'> | undefined,
): DipOwnerView | DipSharedView | null {
  return body && 'dip' in body ? body.dip : null;
}

export function DipModal({
  dipId,
  context,
  open,
  onClose,
}: {
  dipId: string | null;
  context: Context;
  open: boolean;
  onClose: () => void;
}) {
  const { toast } = useToast();
  const shared = useDipDetail(
    'getSharedDip',
    open && dipId && context === 'shared' ? { params: { id: dipId } } : null,
  );
  const owned = useDipDetail(
    'getDip',
    open && dipId && context !== 'shared' ? { params: { reference: dipId } } : null,
  );
  const query = context === 'shared' ? shared : owned;
  // A new short id for each new failure: errorUpdatedAt is the signal, not an input.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const correlationId = useMemo(() => shortCorrelationId(), [query.errorUpdatedAt]);
  const dip = dipOf(query.data);
  const openedAt = useRef(0);
  useEffect(() => {
    if (open) openedAt.current = performance.now();
  }, [open, dipId]);
  useEffect(() => {
    if (!open || !query.isSuccess || !dipId) return;
    trackShareFunnel(context === 'shared' ? 'shared_dip_viewed' : 'dip_viewed', {
      dipId,
      context,
      duration: Math.round(performance.now() - openedAt.current),
    });
  }, [open, query.isSuccess, dipId, context]);
  // A 401 goes to the login with this page kept for after it; the panel says why meanwhile.
  const unauthenticated = query.error instanceof ApiError && query.error.status === 401;
  useEffect(() => {
    if (open && unauthenticated) sendToLogin();
  }, [open, unauthenticated]);
  const quoteCode = dip?.quoteCode;

  const download = async () => {
    if (!quoteCode) {
      toast({
        title: 'Download Error',
        description: 'Cannot download PDF - DIP information not available',
        variant: 'error',
      });
      return;
    }
    const outcome = await downloadDipPdf(quoteCode, quoteCode);
    toast(
      pdfDownloadToast(outcome, {
        failed: "We couldn't download the PDF. Please try again.",
        auth: 'Please log in to download PDFs.',
      }),
    );
    if (outcome === 'ok') trackShareFunnel('dip_pdf_downloaded', { dipId, context });
    return outcome;
  };

  let body;
  if (query.isPending) {
    body = (
      <div className="dip-skeleton" role="status" aria-label="Loading DIP">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="dip-skeleton__block" />
        ))}
      </div>
    );
  } else if (query.isError && isVerificationRequired(query.error)) {
    body = <VerifyEmailNotice resend={false} />;
  } else if (query.isError) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    const known = MESSAGES[status];
    const title = known?.title ?? 'Loading Failed';
    const text =
      known?.text ??
      (context === 'shared'
        ? `Unable to load shared DIP. Please try again later. (Error ${status})`
        : `Unable to load DIP. Please try again later. (Error ${status})`);
    body = (
      <Alert variant="danger" title={title}>
        <p>{text}</p>
        <p className="ui-muted">Reference: {correlationId}</p>
        {status === 401 && (
          <a className="ui-link" href={loginUrlFor()}>
            Log in
          </a>
        )}
        {!known && (
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
            Try Again
          </Button>
        )}
      </Alert>
    );
  } else if (dip) {
    body = (
      <>
        {context !== 'shared' && (
          <ProductChangeNotice productChange={'productChange' in dip ? dip.productChange : null} />
        )}
        <DipDetailSections dip={dip} />
        {context !== 'shared' && dipId && !isDipExpired(dip) && (
          <DipSharesPanel dipId={dipId} quoteCode={quoteCode} />
        )}
      </>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      dismissLabel="Close"
      title="Decision in Principle"
      size="lg"
      footer={<PdfDownloadButton run={download} disabled={!dip || isDipExpired(dip)} />}
    >
      {body}
    </Dialog>
  );
}

/**
 * 'DIP validity': Expired when the status says so (owner view) or expires_at has passed
 * (legacy view); otherwise Active.
 */
export function isDipExpired(dip: Pick<DipDetail, 'status' | 'expires_at'>, now = Date.now()): boolean {
  if (dip.status === 'expired') return true;
  const expiresAt = dip.expires_at ? new Date(dip.expires_at).getTime() : Number.NaN;
  return Number.isFinite(expiresAt) && expiresAt <= now;
}

/** The five sections of a DIP: Borrower, Property, Loan Details, Financial Summary, Important Notice. */
export function DipDetailSections({ dip }: { dip: DipDetail }) {
  const address = [
    dip.property.addressLine1,
    dip.property.addressLine2,
    dip.property.city,
    dip.property.county,
    dip.property.postcode,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <div className="dip-sections">
      <p className="ui-muted ui-row">
        {isDipExpired(dip) ? (
          <Badge variant="danger">Expired</Badge>
        ) : (
          <Badge variant="success">Active</Badge>
        )}
        <span>
          Quote code {dip.quoteCode} · valid until {formatDate(dip.expires_at)}
        </span>
      </p>
      <section>
        <h3>Borrower</h3>
        <dl className="dash-facts">
          <Fact label="Name" value={dip.borrower.name} />
          <Fact label="Borrowing entity" value={dip.borrower.entity} />
        </dl>
      </section>
      <section>
        <h3>Property</h3>
        <dl className="dash-facts">
          <Fact label="Address" value={address} />
          <Fact label="Property type" value={dip.property.propertyType} />
          <Fact label="Current value" value={formatGbp(dip.property.currentValue)} />
        </dl>
      </section>
      <section>
        <h3>Loan Details</h3>
        <dl className="dash-facts">
          <Fact label="Lender" value={dip.loan.lenderName} />
          <Fact label="Product" value={dip.loan.productType} />
          <Fact label="Net loan" value={formatGbp(dip.loan.netLoanAmount)} />
          <Fact label="Gross loan" value={formatGbp(dip.loan.grossLoan)} />
          <Fact label="Fees" value={formatGbp(dip.loan.fees)} />
          <Fact label="Interest rate" value={formatRatePerAnnum(percentToFraction(dip.loan.ratePercent))} />
          <Fact label="Term" value={`${dip.loan.termMonths} months`} />
          <Fact label="LTV" value={`${dip.loan.ltvPercent.toFixed(1)}%`} />
        </dl>
      </section>
      <section>
        <h3>Financial Summary</h3>
        <dl className="dash-facts">
          <Fact label="Purchase price" value={formatGbp(dip.financial.purchasePrice)} />
          <Fact label="Deposit required" value={formatGbp(dip.financial.depositRequired)} />
          <Fact label="Project cost" value={formatGbp(dip.financial.projectCost)} />
          <Fact label="Build cost" value={formatGbp(dip.financial.buildCost)} />
        </dl>
      </section>
      <section>
        <h3>Important Notice</h3>
        <p>
          These terms are indicative and non-binding, and subject to underwriting, valuation, legal due
          diligence and lender approval.
        </p>
      </section>
    </div>
  );
}
