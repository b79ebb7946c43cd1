// The DIPs tab: quote code, Valid/Expired, project name or address, net loan, created
// date, lender, rate (fraction × 100, 2 decimals) and expiry; View DIP, Copy Link and a menu with
// Regenerate Link and Set Expiry (30 days). Copy Link and the menu are disabled once expired (an
// expired DIP cannot be extended: it says so). A DIP whose link the owner revoked reads Revoked, without
// Copy Link; Regenerate Link makes a new link. A DIP whose product a lender panel change withdrew or
// repriced says so (the list is its owner's).
import { Badge, Button, Card, callApi, useToast, trackShareFunnel, Fact, refusalToast } from '@lsp/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { formatRatePerAnnum } from '@lsp/contracts/src/display/format';
import { formatDate, formatGbp } from '../format';
import { dipsKey } from './queries';
import type { DashboardDip } from './queries';
import { copyText } from './clipboard';
import { ProductChangeNotice } from './product-change-notice';
import { LOGIN_REQUIRED_TOAST, canCopyLink, ownerDipState } from './dip-display';
import { sendToLoginAfterToast } from '../pages/auth-redirect';

export const EXPIRY_SHORTCUT_DAYS = 30;

export function DipsTab({
  userId,
  dips,
  onView,
}: {
  userId: string;
  dips: DashboardDip[];
  onView: (dipId: string) => void;
}) {
  if (dips.length === 0) {
    return (
      <Card title="No Decisions in Principle yet" headingLevel={3}>
        <p>Choose Get DIP on one of your search results to create a Decision in Principle.</p>
      </Card>
    );
  }
  return (
    <ul className="dash-list">
      {dips.map((dip) => (
        <DipItem key={dip.id} userId={userId} dip={dip} onView={onView} />
      ))}
    </ul>
  );
}

function DipItem({
  userId,
  dip,
  onView,
}: {
  userId: string;
  dip: DashboardDip;
  onView: (id: string) => void;
}) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'copy' | 'regenerate' | 'expiry' | null>(null);
  const state = ownerDipState(dip);
  const title = dip.snapshot.projectName || dip.snapshot.propertyAddress || 'Decision in Principle';
  const refresh = () => queryClient.invalidateQueries({ queryKey: dipsKey(userId) });
  /** The session ended: 'Login required', then sign in again and come back here. */
  const loginRequired = (status: number) => {
    if (status !== 401) return false;
    toast(LOGIN_REQUIRED_TOAST);
    sendToLoginAfterToast();
    return true;
  };

  const copyLink = async () => {
    setBusy('copy');
    try {
      const answer = await callApi('shareDip', { params: { dipId: dip.id }, body: { inviteType: 'open' } });
      if (!answer.ok || !('url' in answer.data)) {
        if (loginRequired(answer.status)) return;
        toast({
          title: 'Share creation failed',
          description: (!answer.ok && answer.data?.error) || 'Something went wrong',
          variant: 'error',
        });
        return;
      }
      if (await copyText(answer.data.url)) {
        toast({ title: 'DIP link copied', variant: 'success' });
        trackShareFunnel('share_link_copied', { dipId: dip.id, context: 'owner' });
      } else
        toast({ title: 'Copy failed', description: 'Could not copy link to clipboard', variant: 'error' });
    } catch {
      toast({ title: 'Share creation failed', description: 'Something went wrong', variant: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const regenerate = async () => {
    setBusy('regenerate');
    try {
      const answer = await callApi('regenerateDipLink', { params: { dipId: dip.id } });
      if (!answer.ok) {
        if (loginRequired(answer.status)) return;
        toast(refusalToast('Regenerate failed', answer.data, 'Something went wrong'));
        return;
      }
      toast({ title: 'New link generated', description: 'Previous link is now invalid', variant: 'success' });
      trackShareFunnel('share_link_created', {
        dipId: dip.id,
        context: 'owner',
        metadata: { regenerated: true },
      });
      await refresh();
    } catch {
      toast({ title: 'Regenerate failed', description: 'Something went wrong', variant: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const setExpiry = async () => {
    setBusy('expiry');
    const expiresAt = new Date(Date.now() + EXPIRY_SHORTCUT_DAYS * 24 * 3600_000).toISOString();
    try {
      const answer = await callApi('setDipExpiry', { params: { dipId: dip.id }, body: { expiresAt } });
      if (!answer.ok) {
        if (loginRequired(answer.status)) return;
        toast(refusalToast('Extend failed', answer.data, 'Something went wrong'));
        return;
      }
      toast({
        title: 'Expiry updated',
        description: `This DIP now expires on ${formatDate(answer.data.expiresAt)}`,
        variant: 'success',
      });
      await refresh();
    } catch {
      toast({ title: 'Extend failed', description: 'Something went wrong', variant: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className="dash-item" data-dip-id={dip.id}>
      <div className="dash-item__body">
        <div className="ui-row dash-item__title-row">
          <h3 className="dash-item__title">{dip.quoteCode}</h3>
          {state === 'expired' && <Badge variant="danger">Expired</Badge>}
          {state === 'revoked' && <Badge variant="warning">Revoked</Badge>}
          {state === 'valid' && <Badge variant="success">Valid</Badge>}
        </div>
        <p className="dash-item__subtitle">{title}</p>
        {state === 'expired' && (
          <p className="ui-muted dash-item__note">
            This DIP has expired: it can no longer be shared or extended. Choose Get DIP on the search's
            results for a new one.
          </p>
        )}
        {state === 'revoked' && (
          <p className="ui-muted dash-item__note">
            Link revoked: nobody it was shared with can open this DIP. Regenerate Link makes a new link.
          </p>
        )}
        <ProductChangeNotice productChange={dip.productChange} />
        <dl className="dash-facts">
          <Fact label="Net loan" value={formatGbp(dip.snapshot.netLoan)} />
          <Fact label="Created" value={formatDate(dip.createdAt)} />
          <Fact label="Lender" value={dip.snapshot.lenderName || '—'} />
          <Fact label="Rate" value={formatRatePerAnnum(dip.snapshot.interestRate)} />
          <Fact label="Expires" value={formatDate(dip.expiresAt)} />
        </dl>
      </div>
      <div className="dash-item__actions">
        <Button size="sm" onClick={() => onView(dip.id)} aria-label={`View DIP ${dip.quoteCode}`}>
          View DIP
        </Button>
        {state !== 'revoked' && (
          <Button
            size="sm"
            variant="secondary"
            disabled={!canCopyLink(state)}
            loading={busy === 'copy'}
            loadingText="Copying..."
            onClick={() => void copyLink()}
            aria-label={`Copy Link for ${dip.quoteCode}`}
          >
            Copy Link
          </Button>
        )}
        <ActionsMenu
          label={`More actions for ${dip.quoteCode}`}
          disabled={dip.isExpired || busy !== null}
          actions={[
            { label: 'Regenerate Link', run: () => void regenerate() },
            { label: `Set Expiry (${EXPIRY_SHORTCUT_DAYS} days)`, run: () => void setExpiry() },
          ]}
        />
      </div>
    </li>
  );
}

/** A small menu button (WAI-ARIA menu button: arrows move, Escape closes and returns focus). */
function ActionsMenu({
  label,
  disabled,
  actions,
}: {
  label: string;
  disabled: boolean;
  actions: Array<{ label: string; run: () => void }>;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const items = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    if (open) items.current[0]?.focus();
  }, [open]);
  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (index + (event.key === 'ArrowDown' ? 1 : -1) + actions.length) % actions.length;
      items.current[next]?.focus();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div className="dash-menu">
      <Button
        ref={trigger}
        size="sm"
        variant="ghost"
        disabled={disabled}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={label}
        onClick={() => setOpen((v) => !v)}
      >
        More
      </Button>
      {open && (
        <div id={menuId} role="menu" aria-label={label} className="dash-menu__list">
          {actions.map((action, index) => (
            <button
              key={action.label}
              ref={(el) => {
                items.current[index] = el;
              }}
              type="button"
              role="menuitem"
              className="dash-menu__item"
              tabIndex={-1}
              onKeyDown={(e) => onKeyDown(e, index)}
              onClick={() => {
                close();
                action.run();
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
