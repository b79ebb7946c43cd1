// The Radix part of Dialog, loaded the first time any dialog opens so it stays out of the first
// download: focus moves in on open and stays trapped inside, Escape closes, focus returns to the
// opener, the page behind is hidden from assistive technology, the title labels the dialog.
import * as RadixDialog from '@radix-ui/react-dialog';
import { cx } from './class-names';
import type { DialogProps } from './dialog';
import { CloseIcon } from './icons';

export function DialogContent({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  hideClose,
  closeLabel = 'Close',
  className,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-dialog-overlay" />
        <RadixDialog.Content className={cx('ui-dialog', size !== 'md' && `ui-dialog--${size}`, className)}>
          <div className="ui-dialog__header">
            <div>
              <RadixDialog.Title className="ui-dialog__title">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="ui-dialog__description">
                  {description}
                </RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="ui-visually-hidden">
                  {typeof title === 'string' ? title : ''}
                </RadixDialog.Description>
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
