// /dips/{id}: 'Loading DIP...', then into the dashboard's modal (tab shared when
// shared=1, else dips) unless modal=0, which shows the DIP on this page; 'Unable to Load DIP' with
// the reason and Return to Dashboard on failure. A DIP that is not the caller's own opens as shared
// when it is shared with them, with or without shared=1.
import { Alert, ApiError, Spinner, VerifyEmailNotice, buttonClass, isVerificationRequired } from '@lsp/ui';
import { useEffect } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { DipDetailSections, dipOf } from '../dashboard/dip-modal';
import { useDipDetail } from '../dashboard/dip-query';
import { dipErrorMessage } from './dip-errors';
import { sendToLogin } from './auth-redirect';

export function DipDeepLinkPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const askedShared = params.get('shared') === '1';
  const inModal = params.get('modal') !== '0';
  const ownDip = useDipDetail('getDip', askedShared ? null : { params: { reference: id } });
  // Not the caller's own DIP: someone it was shared with, opening the link without shared=1, is shown
  // it as shared (the shared view still refuses anyone without a share).
  const notOwner = ownDip.error instanceof ApiError && ownDip.error.status === 403;
  const shared = askedShared || notOwner;
  const sharedDip = useDipDetail('getSharedDip', shared ? { params: { id } } : null);
  const query = shared ? sharedDip : ownDip;
  const status = query.error instanceof ApiError ? query.error.status : 0;

  useEffect(() => {
    if (query.isError && status === 401) sendToLogin();
  }, [query.isError, status]);

  useEffect(() => {
    if (!query.isSuccess || !inModal) return;
    const target = new URLSearchParams({ tab: shared ? 'shared' : 'dips', dipId: id, modal: '1' });
    if (shared) target.set('shared', '1');
    else target.set('context', 'owner');
    navigate(`/dashboard?${target.toString()}`, { replace: true });
  }, [query.isSuccess, inModal, shared, id, navigate]);

  if (query.isError) {
    return (
      <div className="ui-container dash-page dash-narrow">
        <h1>Unable to Load DIP</h1>
        {isVerificationRequired(query.error) ? (
          <VerifyEmailNotice resend={false} />
        ) : (
          <Alert variant="danger" title="Unable to Load DIP">
            {dipErrorMessage(status, shared ? 'shared' : 'owner')}
          </Alert>
        )}
        <Link to="/dashboard" className={buttonClass('primary')}>
          Return to Dashboard
        </Link>
      </div>
    );
  }
  const dip = dipOf(query.data);
  if (query.isSuccess && !inModal && dip) {
    return (
      <div className="ui-container dash-page dash-narrow">
        <h1>Decision in Principle</h1>
        <DipDetailSections dip={dip} />
        <Link to="/dashboard" className={buttonClass('secondary')}>
          Return to Dashboard
        </Link>
      </div>
    );
  }
  return (
    <div className="ui-container dash-page ui-row" role="status">
      <Spinner /> <span>Loading DIP...</span>
    </div>
  );
}
