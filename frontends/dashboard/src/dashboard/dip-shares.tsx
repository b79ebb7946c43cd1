// The owner's sharing of one DIP (issue 24 item 5; spec 001 §8 'Share revoked', 'Link revoked',
// 'Revoke failed'): the open link (Copy Link's) with how many people opened it, and each recipient by
// email, each with Revoke. Shown in the owner's DIP modal while the DIP is valid.
import { Badge, Button, Spinner, callApi, requestApi, useToast, refusalToast } from '@lsp/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { formatDate } from '../format';

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
    </section>
  );
}
