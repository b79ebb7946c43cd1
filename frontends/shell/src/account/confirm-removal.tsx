// The confirmation a removal waits for: what goes, what stops working, Cancel or the danger button.
import { Button, Dialog } from '@lsp/ui';
import type { ReactNode } from 'react';
import type { RemovalTarget } from './developer-access-model';

export interface ConfirmRemovalProps {
  target: RemovalTarget | null;
  title: string;
  /** The danger button's words ('Revoke key'). */
  confirmLabel: string;
  busyLabel: string;
  removing: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}

export function ConfirmRemoval({
  target,
  title,
  confirmLabel,
  busyLabel,
  removing,
  onConfirm,
  onCancel,
  children,
}: ConfirmRemovalProps) {
  return (
    <Dialog
      open={target !== null}
      title={title}
      onClose={onCancel}
      dismissLabel="Cancel"
      footer={
        <Button variant="danger" loading={removing} loadingText={busyLabel} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      }
    >
      {children}
    </Dialog>
  );
}
