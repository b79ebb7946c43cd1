// /shared-deal/{token} (also ?token=): the deal someone sent with Send Deal ('Shared deal
// page'): sharer, note, lender, rate, gross and net loan, deposit, arrangement fee, and the profit
// forecast or monthly payment. Opening it tells the server it was viewed. Start Application carries
// the offer to /application; Compare More Loans goes home. Someone signed out is offered an account
// made from the deal (`/register?ref_deal_id={token}`, remembered as signupReferralToken), which brings
// them back here once verified and signed in, the deal linked to the new account.
import {
  Alert,
  ApiError,
  type ApiResult,
  Card,
  Spinner,
  buttonClass,
  callApi,
  requestApi,
  useSession,
  Fact,
} from '@lsp/ui';
import { STORAGE_KEYS, formatCurrency2dp, formatRatePerAnnum } from '@lsp/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { formatGbp } from '../format';

type SharedDeal = ApiResult<'getSharedDeal'>;

/** The offer as sent: Send Deal posts it as JSON text, other senders as an object. */
function offerOf(deal: SharedDeal): Record<string, unknown> {
  let data = deal.loan_data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return {};
    }
  }
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

const num = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').replace(/[,£\s]/g, ''));
  return Number.isFinite(n) && String(value ?? '') !== '' ? n : null;
};

export function SharedDealPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const token = params.token ?? search.get('token') ?? '';
  const { status: session } = useSession();
  const query = useQuery({
    queryKey: ['/api/shared-deal', token],
    enabled: token !== '',
    queryFn: ({ signal }) => requestApi('getSharedDeal', { params: { token } }, { signal, on401: 'throw' }),
    retry: false,
    staleTime: Infinity,
  });

  useEffect(() => {
    if (query.isSuccess) void callApi('markSharedDealViewed', { params: { token } }).catch(() => undefined);
  }, [query.isSuccess, token]);

  // Signed out: this deal is the one a sign-up from here comes from; signed in, the journey is over.
  useEffect(() => {
    if (!query.isSuccess || session === 'loading') return;
    try {
      if (session === 'anonymous') localStorage.setItem(STORAGE_KEYS.signupReferralToken, token);
      else if (localStorage.getItem(STORAGE_KEYS.signupReferralToken) === token)
        localStorage.removeItem(STORAGE_KEYS.signupReferralToken);
    } catch {
      // Storage refused (private mode): the link below still carries the deal.
    }
  }, [query.isSuccess, session, token]);

  if (!token) return <DealMissing text="No shared deal found" />;
  if (query.isPending)
    return (
      <div className="ui-container dash-page ui-row" role="status">
        <Spinner /> <span>Loading shared deal...</span>
      </div>
    );
  if (query.isError) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    return <DealMissing text={status === 404 ? 'Deal not found' : 'Failed to load shared deal'} />;
  }

  const deal = query.data;
  const offer = offerOf(deal);
  const rate = num(offer.InterestRate);
  const profit = num(offer.ProfitForecast);
  const monthly = num(offer.MonthlyPayment);
  const startApplication = () => {
    localStorage.setItem(
      STORAGE_KEYS.pendingApplication,
      JSON.stringify({ formData: {}, selectedLoan: offer, loanType: deal.loan_type, timestamp: Date.now() }),
    );
    localStorage.setItem(STORAGE_KEYS.selectedLoan, JSON.stringify(offer));
    navigate('/application');
  };

  return (
    <div className="ui-container dash-page dash-narrow">
      <h1>A deal shared with you</h1>
      <p>
        <strong>{deal.referrer_name || 'Someone'}</strong> shared this loan option with you.
      </p>
      {deal.note && (
        <Alert variant="info" title="Personal note">
          {deal.note}
        </Alert>
      )}
      <Card title={String(offer.LenderName ?? offer.Lender ?? 'Lender')} headingLevel={2}>
        <dl className="dash-facts">
          <Fact
            label="Interest rate"
            value={rate === null ? '—' : formatRatePerAnnum(rate < 1 ? rate : rate / 100)}
          />
          <Fact label="Gross loan" value={formatGbp(offer.GrossLoan)} />
          <Fact label="Net loan" value={formatGbp(offer.NetLoan)} />
          <Fact label="Deposit" value={formatGbp(offer.DepositRequired)} />
          <Fact label="Arrangement fee" value={formatGbp(offer.ArrangementFee)} />
          {profit !== null && profit !== 0 ? (
            <Fact label="Profit forecast" value={formatGbp(profit)} />
          ) : (
            <Fact label="Monthly payment" value={formatCurrency2dp(monthly)} />
          )}
        </dl>
      </Card>
      {session === 'anonymous' && (
        <Card title="Your own account" headingLevel={2}>
          <p>
            Create a free account to keep this deal, run your own searches and apply. You come back to this
            deal once your email address is verified.
          </p>
          <div className="ui-row">
            <Link
              to={`/register?ref_deal_id=${encodeURIComponent(token)}`}
              className={buttonClass('primary')}
            >
              Create a free account
            </Link>
            <Link to={`/login?token=${encodeURIComponent(token)}`} className={buttonClass('secondary')}>
              Sign in
            </Link>
          </div>
        </Card>
      )}
      <div className="ui-row">
        <button type="button" className={buttonClass('primary')} onClick={startApplication}>
          Start Application
        </button>
        <Link to="/" className={buttonClass('secondary')}>
          Compare More Loans
        </Link>
      </div>
    </div>
  );
}

function DealMissing({ text }: { text: string }) {
  return (
    <div className="ui-container dash-page dash-narrow">
      <h1>Deal not found or expired</h1>
      <Alert variant="danger" title={text}>
        The link may be mistyped or the deal may have expired.
      </Alert>
      <Link to="/" className={buttonClass('primary')}>
        Compare More Loans
      </Link>
    </div>
  );
}
