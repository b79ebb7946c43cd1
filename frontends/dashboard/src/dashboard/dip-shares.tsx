// The owner's sharing of one DIP ('Share revoked', 'Link revoked',
// 'Revoke failed'): the open link (Copy Link's) with how many people opened it, and each recipient by
// email, each with Revoke; and the link's actions, Copy Link, Regenerate Link and Extend expiry, in
// the words of the spec's share toasts ('Share created', 'Link copied', 'Link regenerated', 'Expiry
// extended', their failures, and 'Login required' when the session has ended). Shown in the owner's
// DIP modal while the DIP is valid.
import {
  Badge,
  Button,
  Spinner,
  callApi,
  requestApi,
  useToast,
  refusalToast,
  trackShareFunnel,
  useSession,
} from '@lsp/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { formatDate } from '../format';
import { sendToLoginAfterToast } from '../pages/auth-redirect';
import { copyText } from './clipboard';
import { type OwnerLinkAction, type OwnerLinkOutcome, ownerLinkToast } from './dip-display';
import { EXPIRY_SHORTCUT_DAYS } from './dips-tab';
import { dipsKey } from './queries';

export const dipSharesKey = (dipId: string) => ['dip-shares', dipId] as const;

/** One share's Revoke button: busy while that share is being revoked, disabled while any one is. */
function RevokeButton({
  shareId,
  revoking,
  onClick,
  label,
  children,
}: {
  shareId: string;
  revoking: string | null;
  onClick: () => void;
  label: string;
  children: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant="danger"
      loading={revoking === shareId}
      loadingText="Revoking..."
      disabled={revoking !== null}
      onClick={onClick}
      aria-label={label}
    >
      {children}
    </Button>
  );
}

export function DipSharesPanel({ dipId, quoteCode }: { dipId: string; quoteCode?: string }) {
  const { toast } = useToast();
  const { user } = useSession();
  const userId = user?.id;
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<string | null>(null);
  const shares = useQuery({
    queryKey: dipSharesKey(dipId),
    queryFn: ({ signal }) => requestApi('listDipShares', { params: { dipId } }, { signal }),
    staleTime: 0,
  });

  const revoke = async (shareId: string, what: { open: true } | { open: false; email: string }) => {
    setRevoking(shareId);
    try {
      const answer = await callApi('revokeShare', { params: { dipId, shareId } });
      if (!answer.ok) {
        toast(refusalToast('Revoke failed', answer.data, 'Something went wrong'));
        return;
      }
      if (what.open)
        toast({
          title: 'Link revoked',
          description: 'The open link no longer opens this DIP',
          variant: 'success',
        });
      else
        toast({
          title: 'Share revoked',
          description: `${what.email} can no longer open this DIP`,
          variant: 'success',
        });
      await queryClient.invalidateQueries({ queryKey: dipSharesKey(dipId) });
    } catch {
      toast({ title: 'Revoke failed', description: 'Something went wrong', variant: 'error' });
    } finally {
      setRevoking(null);
    }
  };

  const [acting, setActing] = useState<OwnerLinkAction | null>(null);
  /** Runs one link action and says how it went; a 401 sends the owner to sign in again. */
  const act = async (action: OwnerLinkAction, run: () => Promise<OwnerLinkOutcome>) => {
    setActing(action);
    let outcome: OwnerLinkOutcome;
    try {
      outcome = await run();
    } catch {
      outcome = { status: 0, ok: false };
    } finally {
      setActing(null);
    }
    toast(ownerLinkToast(action, outcome));
    if (outcome.status === 401) {
      sendToLoginAfterToast();
      return;
    }
    if (outcome.ok)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dipSharesKey(dipId) }),
        queryClient.invalidateQueries({ queryKey: ['dip-detail'] }),
        ...(userId ? [queryClient.invalidateQueries({ queryKey: dipsKey(userId) })] : []),
      ]);
  };
  const copyLink = () =>
    act('copy', async () => {
      const madeNewLink = shares.isSuccess && shares.data.openLink === null;
      const answer = await callApi('shareDip', { params: { dipId }, body: { inviteType: 'open' } });
      const url = answer.ok ? (answer.data as { url?: unknown } | null)?.url : undefined;
      if (!answer.ok || typeof url !== 'string')
        return { status: answer.status, ok: false, error: (answer.data as { error?: string } | null)?.error };
      const copied = await copyText(url);
      if (copied) trackShareFunnel('share_link_copied', { dipId, context: 'owner' });
      return { status: answer.status, ok: true, madeNewLink, copyRefused: !copied };
    });
  const regenerate = () =>
    act('regenerate', async () => {
      const answer = await callApi('regenerateDipLink', { params: { dipId } });
      return {
        status: answer.status,
        ok: answer.ok,
        error: (answer.data as { error?: string } | null)?.error,
      };
    });
  const extend = () =>
    act('extend', async () => {
      const expiresAt = new Date(Date.now() + EXPIRY_SHORTCUT_DAYS * 24 * 3600_000).toISOString();
      const answer = await callApi('setDipExpiry', { params: { dipId }, body: { expiresAt } });
      const data = answer.data as { error?: string; expiresAt?: string } | null;
      return {
        status: answer.status,
        ok: answer.ok,
        error: data?.error,
        expiresOn: data?.expiresAt ? formatDate(data.expiresAt) : undefined,
      };
    });

  const label = quoteCode ? ` of ${quoteCode}` : '';
  let content;
  if (shares.isPending) {
    content = (
      <p className="ui-row" role="status">
        <Spinner /> <span>Loading who it is shared with...</span>
      </p>
    );
  } else if (shares.isError) {
    content = (
      <p className="ui-muted">
        Could not load who this DIP is shared with.{' '}
        <Button size="sm" variant="link" onClick={() => void shares.refetch()}>
          Try Again
        </Button>
      </p>
    );
  } else {
    const { openLink, recipients } = shares.data;
    content =
      !openLink && recipients.length === 0 ? (
        <p className="ui-muted">Not shared yet. Copy Link or share it by email to give someone access.</p>
      ) : (
        <ul className="dip-shares">
          {openLink && (
            <li className="dip-shares__item">
              <span className="dip-shares__who">
                <strong>Open link</strong>
                <span className="ui-muted">
                  {' '}
                  · opened by {openLink.openedBy} {openLink.openedBy === 1 ? 'person' : 'people'} · made{' '}
                  {formatDate(openLink.createdAt)}
                </span>
              </span>
              <RevokeButton
                shareId={openLink.shareId}
                revoking={revoking}
                onClick={() => void revoke(openLink.shareId, { open: true })}
                label={`Revoke the open link${label}`}
              >
                Revoke Link
              </RevokeButton>
            </li>
          )}
          {recipients.map((r) => (
            <li key={r.shareId} className="dip-shares__item">
              <span className="dip-shares__who">
                <span className="dip-shares__email">{r.email}</span>{' '}
                {r.viewed ? <Badge>Viewed</Badge> : <Badge variant="info">New</Badge>}
                <span className="ui-muted"> · shared {formatDate(r.sharedAt)}</span>
              </span>
              <RevokeButton
                shareId={r.shareId}
                revoking={revoking}
                onClick={() => void revoke(r.shareId, { open: false, email: r.email })}
                label={`Revoke ${r.email}'s access${label}`}
              >
                Revoke
              </RevokeButton>
            </li>
          ))}
        </ul>
      );
  }
  return (
    <section aria-labelledby={`dip-shares-${dipId}`}>
      <h3 id={`dip-shares-${dipId}`}>Shared with</h3>
      {content}
      <div className="ui-row dip-shares__actions">
        <Button
          size="sm"
          variant="secondary"
          loading={acting === 'copy'}
          loadingText="Copying..."
          disabled={acting !== null}
          onClick={() => void copyLink()}
          aria-label={`Copy Link${label}`}
        >
          Copy Link
        </Button>
        <Button
          size="sm"
          variant="ghost"
          loading={acting === 'regenerate'}
          loadingText="Regenerating..."
          disabled={acting !== null}
          onClick={() => void regenerate()}
          aria-label={`Regenerate Link${label}`}
        >
          Regenerate Link
        </Button>
        <Button
          size="sm"
          variant="ghost"
          loading={acting === 'extend'}
          loadingText="Extending..."
          disabled={acting !== null}
          onClick={() => void extend()}
          aria-label={`Extend expiry (${EXPIRY_SHORTCUT_DAYS} days)${label}`}
        >
          Extend expiry ({EXPIRY_SHORTCUT_DAYS} days)
        </Button>
      </div>
    </section>
  );
}
