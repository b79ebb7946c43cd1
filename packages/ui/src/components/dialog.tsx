// Dialog: the accessible modal (see dialog-content.tsx). Nothing of it is downloaded until a dialog
// first opens; from then on it is cached.
import { Suspense, lazy, useState } from 'react';
import type { ReactNode } from 'react';
import { Button } from './button';

interface DialogFrameProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons along the bottom (Cancel, Submit...). */
  footer?: ReactNode;
  size?: 'md' | 'lg' | 'xl';
  /** Hide the × button when the dialog must be answered through its own buttons. */
  hideClose?: boolean;
  closeLabel?: string;
  className?: string;
}

/** What dialog-content.tsx renders: the frame and Radix's open-state callback. */
export interface DialogContentProps extends DialogFrameProps {
  onOpenChange: (open: boolean) => void;
}

export type DialogProps = DialogFrameProps &
  (
    | { onOpenChange: (open: boolean) => void }
    | {
        /** Called whenever the person dismisses the dialog: Escape, the × button, the dismiss button. */
        onClose: () => void;
        /** The secondary button that leads the footer and closes the dialog ('Cancel', 'Close'). */
        dismissLabel?: string;
      }
  );

const DialogContent = lazy(() => import('./dialog-content.js').then((m) => ({ default: m.DialogContent })));

/** A dialog given onClose hears every dismissal through it, and its dismiss button leads the footer. */
function contentProps(props: DialogProps): DialogContentProps {
  if ('onOpenChange' in props) return props;
  const { onClose, dismissLabel, footer, ...frame } = props;
  return {
    ...frame,
    onOpenChange: (open) => {
      if (!open) onClose();
    },
    footer: dismissLabel ? (
      <>
        <Button variant="secondary" onClick={onClose}>
          {dismissLabel}
        </Button>
        {footer}
      </>
    ) : (
      footer
    ),
  };
}

export function Dialog(props: DialogProps) {
  // Mounted from the first opening on, so closing still plays through Radix (focus goes back).
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <DialogContent {...contentProps(props)} />
    </Suspense>
  );
}
