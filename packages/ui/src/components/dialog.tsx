// Dialogs on Radix: focus moves in on open, stays trapped inside, Escape closes, focus returns to
// the opener, the page behind is hidden from assistive technology, and the title labels the dialog.
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { CloseIcon } from './icons';

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

export function Dialog({ open, onOpenChange, title, description, children, footer, size = 'md', hideClose, closeLabel = 'Close', className }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-dialog-overlay" />
        <RadixDialog.Content className={cx('ui-dialog', size !== 'md' && `ui-dialog--${size}`, className)}>
          <div className="ui-dialog__header">
            <div>
              <RadixDialog.Title className="ui-dialog__title">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="ui-dialog__description">{description}</RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="ui-visually-hidden">{typeof title === 'string' ? title : ''}</RadixDialog.Description>
              )}
            </div>
            {!hideClose && (
              <RadixDialog.Close className="ui-icon-button" aria-label={closeLabel}>
                <CloseIcon />
              </RadixDialog.Close>
            )}
          </div>
          <div className="ui-dialog__body">{children}</div>
          {footer && <div className="ui-dialog__footer">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button inside a dialog that closes it (Cancel). */
export const DialogClose = RadixDialog.Close;
