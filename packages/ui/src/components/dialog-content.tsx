// The Radix part of Dialog, loaded the first time any dialog opens so it stays out of the first
// download: focus moves in on open and stays trapped inside, Escape closes, focus returns to the
// opener, the page behind is hidden from assistive technology, the title labels the dialog.
import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { cx } from './class-names';
import type { DialogContentProps } from './dialog';
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
}: DialogContentProps) {
  // Radix gives focus back only to its own Trigger; our dialogs are opened by ordinary buttons (or
  // by a form submit), so the element focused when the dialog opened is remembered and refocused.
  // A layout effect runs before Radix moves focus into the dialog.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);

  // A body taller than the dialog scrolls; with nothing focusable in view a keyboard user could not
  // scroll it, so while it overflows it is a tab stop of its own (WCAG 2.1.1; axe's
  // scrollable-region-focusable). It is measured again whenever its size or content changes.
  // A callback ref: Radix mounts the content through a portal a render after this component.
  const [body, setBody] = useState<HTMLDivElement | null>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = body;
    if (!element) return;
    const measure = () => setScrolls(element.scrollHeight > element.clientHeight + 1);
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    const changed = new MutationObserver(measure);
    changed.observe(element, { childList: true, subtree: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [body]);

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-dialog-overlay" />
        <RadixDialog.Content
          className={cx('ui-dialog', size !== 'md' && `ui-dialog--${size}`, className)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
        >
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
          <div
            ref={setBody}
            className="ui-dialog__body"
            {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': 'Dialog content' } : {})}
          >
            {children}
          </div>
          {footer && <div className="ui-dialog__footer">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
