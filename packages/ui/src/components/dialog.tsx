// Dialog: the accessible modal (see dialog-content.tsx). Nothing of it is downloaded until a dialog
// first opens; from then on it is cached.
import { Suspense, lazy, useState } from 'react';
import type { ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
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

const DialogContent = lazy(() => import('./dialog-content.js').then((m) => ({ default: m.DialogContent })));

export function Dialog(props: DialogProps) {
  // Mounted from the first opening on, so closing still plays through Radix (focus goes back).
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <DialogContent {...props} />
    </Suspense>
  );
}
