// /shared/{slug}?e=&sig= ('Shared DIP page'): one shared DIP, read only, for the signed-in
// recipient, with Download PDF where the share allows it. Signed out: the path is kept and the user
// signs in first. A link for another email address shows the mismatch panel offering to sign out and
// back in with the right account. Without e and sig (Shared With Me's View Details, through
// /dip/view/{slug}) the DIP opens when it is in the caller's own Shared with me under that slug;
// otherwise the link misses its parameters. A link the owner has since regenerated, opened by someone
// who still has the DIP, says the link was replaced and leads to Shared with me.
import {
  Alert,
  ApiError,
  Button,
  Spinner,
  VerifyEmailNotice,
  callApi,
  isVerificationRequired,
  buttonClass,
  clearLegacySessionKeys,
  useSession,
  trackShareFunnel,
  useToast,
} from '@lsp/ui';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { DipDetailSections, dipOf } from '../dashboard/dip-modal';
import { useDipDetail } from '../dashboard/dip-query';
import { downloadDipPdf } from '../dashboard/pdf';
import { pdfDownloadToast } from '../dashboard/pdf-toast';
import { PdfDownloadButton } from '../dashboard/pdf-download-button';
import { useShared } from '../dashboard/queries';
import { formatDate } from '../format';
import { sendToLogin } from './auth-redirect';

export function sharedLinkErrorMessage(status: number, body: unknown): string {
  if (status === 401 || status === 403) return "This link has expired or you don't have access to view it.";
  if (status === 404) return 'The shared deal could not be found.';
  if (status === 410) return 'This deal has expired.';
  const serverError = (body as { error?: unknown } | null)?.error;
  return typeof serverError === 'string' && serverError ? serverError : 'Failed to load shared deal';
}

/** The DIP a replaced link names (a 404 with `linkReplaced`), or null for any other refusal. */
export function replacedLinkOf(body: unknown): { dipId: string } | null {
  const answer = body as { linkReplaced?: unknown; dipId?: unknown } | null;
  return answer?.linkReplaced === true && typeof answer.dipId === 'string' ? { dipId: answer.dipId } : null;
}

export function SharedDipPage() {
  const { slug = '' } = useParams();
  const [params] = useSearchParams();
  const { status: session, user } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const { toast } = useToast();
  const e = params.get('e');
  const sig = params.get('sig');
  const signed = Boolean(e && sig);
  const signedQuery = useDipDetail(
    'openSharedDip',
    session === 'authenticated' && e && sig ? { params: { slug }, query: { e, sig } } : null,
  );
  // View Details from Shared with me: the caller's own entry under this slug, read by its DIP id.
  const list = useShared();
  const listed =
    !signed && session === 'authenticated' ? list.data?.find((i) => i.shareSlug === slug) : undefined;
  const listedQuery = useDipDetail('getSharedDip', listed ? { params: { id: listed.dipId } } : null);
  const query = signed ? signedQuery : listedQuery;
  const error = query.error instanceof ApiError ? query.error : null;

  useEffect(() => {
    if (session === 'anonymous' || error?.status === 401) sendToLogin();
  }, [session, error?.status]);
  const shareId = query.data?.shareInfo.shareId ?? null;
  const dipId = typeof query.data?.dip?.id === 'string' ? query.data.dip.id : null;
  // Opened: someone followed a share link (signed in or not yet). Accepted: the server let the
  // addressed recipient in.
  const linked = Boolean(e && sig);
  useEffect(() => {
    if (linked) trackShareFunnel('share_link_opened', { context: 'shared', metadata: { slug } });
  }, [linked, slug]);
  useEffect(() => {
    if (query.isSuccess) trackShareFunnel('share_accepted', { dipId, shareId, context: 'shared' });
  }, [query.isSuccess, dipId, shareId]);

  if (!signed && (session !== 'authenticated' || list.isPending)) {
    return (
      <div className="ui-container dash-page ui-row" role="status">
        <Spinner /> <span>Loading shared DIP...</span>
      </div>
    );
  }
  if (!signed && !listed) {
    return (
      <Panel title="Invalid share link">
        <Alert variant="danger" title="Invalid share link">
          Invalid share link - missing parameters
        </Alert>
      </Panel>
    );
  }
  if (session !== 'authenticated' || query.isPending) {
    return (
      <div className="ui-container dash-page ui-row" role="status">
        <Spinner /> <span>Loading shared DIP...</span>
      </div>
    );
  }
  if (query.isError) {
    const mismatch = Boolean((error?.body as { canSignOut?: boolean } | null)?.canSignOut);
    if (mismatch) {
      const signOut = async () => {
        setSigningOut(true);
        await callApi('logout').catch(() => undefined);
        clearLegacySessionKeys();
        const here = window.location.pathname + window.location.search;
        window.location.assign(`/login?next=${encodeURIComponent(here)}`);
      };
      return (
        <Panel title="Shared with a different email address">
          <Alert variant="warning" title="Signed in with a different account">
            <p>
              This DIP was shared with a different email address. Sign out, then sign in with the email
              address it was sent to.
            </p>
            <p className="ui-muted">You are signed in as {user?.email}.</p>
          </Alert>
          <div className="ui-row">
            <Button onClick={() => void signOut()} loading={signingOut} loadingText="Signing out...">
              Sign out and switch account
            </Button>
            <Link to="/dashboard" className={buttonClass('secondary')}>
              Return to Dashboard
            </Link>
          </div>
        </Panel>
      );
    }
    if (isVerificationRequired(error)) {
      return (
        <Panel title="Shared DIP">
          <VerifyEmailNotice resend={false} />
        </Panel>
      );
    }
    const replaced = replacedLinkOf(error?.body);
    if (error?.status === 404 && replaced) {
      // The owner made a new link: this one no longer opens, but the DIP is still shared with them.
      return (
        <Panel title="Shared DIP">
          <Alert variant="info" title="This link has been replaced">
            The owner has made a new link for this DIP, so this one no longer opens. It is still in your
            Shared with me.
          </Alert>
          <Link
            to={`/shared-with-me?highlightDip=${encodeURIComponent(replaced.dipId)}`}
            className={buttonClass('primary')}
          >
            Go to Shared with me
          </Link>
        </Panel>
      );
    }
    if (error?.status === 410) {
      return (
        <Panel title="Shared DIP">
          <Alert variant="warning" title={sharedLinkErrorMessage(410, error.body)}>
            This DIP has expired and can no longer be accessed.
          </Alert>
          <Link to="/dashboard?tab=shared" className={buttonClass('secondary')}>
            Go to Shared with me
          </Link>
        </Panel>
      );
    }
    return (
      <Panel title="Shared DIP">
        <Alert variant="danger" title="Unable to open this link">
          {error ? sharedLinkErrorMessage(error.status, error.body) : 'Failed to load shared deal'}
        </Alert>
        {!error && (
          <Button variant="secondary" onClick={() => void query.refetch()}>
            Try Again
          </Button>
        )}
      </Panel>
    );
  }
  const dip = dipOf(query.data);
  const info = query.data?.shareInfo;
  const quoteCode = dip?.quoteCode;
  const mayDownload = query.data?.permissions?.downloadPdf !== false && Boolean(quoteCode);
  const download = async () => {
    if (!quoteCode) return;
    const outcome = await downloadDipPdf(quoteCode, quoteCode);
    toast(
      pdfDownloadToast(outcome, {
        failed: "We couldn't download the PDF. Please try again.",
        auth: 'Please log in to download PDFs.',
      }),
    );
    if (outcome === 'ok') trackShareFunnel('dip_pdf_downloaded', { dipId, shareId, context: 'shared' });
    return outcome;
  };
  return (
    <Panel title="Decision in Principle">
      <Alert variant="info" title="Read-only view">
        This Decision in Principle was shared with you{info?.shared_by ? ` by ${info.shared_by}` : ''}
        {info?.shared_at ? ` on ${formatDate(info.shared_at)}` : ''}. You can view it but not change it.
      </Alert>
      {info?.message && <p className="dash-item__message">“{info.message}”</p>}
      {dip && <DipDetailSections dip={dip} />}
      <div className="ui-row">
        {mayDownload && <PdfDownloadButton run={download} />}
        <Link to="/dashboard?tab=shared" className={buttonClass('secondary')}>
          Go to Shared with me
        </Link>
      </div>
    </Panel>
  );
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="ui-container dash-page dash-narrow">
      <h1>{title}</h1>
      {children}
    </div>
  );
}
