// A tooltip shown while its trigger is hovered or focused, hidden with Escape, and tied to the
// trigger with aria-describedby. The trigger must be focusable (a button or link). Positioned with
// CSS above the trigger (below when `side="bottom"`), which is all the product's short hints need.
import { cloneElement, useEffect, useId, useState } from 'react';
import type { FocusEvent, MouseEvent, ReactElement, ReactNode } from 'react';

export interface TooltipProps {
  content: ReactNode;
  children: ReactElement<{
    'aria-describedby'?: string;
    onMouseEnter?: (event: MouseEvent) => void;
    onMouseLeave?: (event: MouseEvent) => void;
    onFocus?: (event: FocusEvent) => void;
    onBlur?: (event: FocusEvent) => void;
  }>;
  side?: 'top' | 'bottom';
}

export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    // Escape first dismisses the tooltip only: caught on window in the capture phase, ahead of a
    // surrounding dialog's own Escape handling, so a second Escape is needed to close the dialog.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [open]);

  const props = children.props;
  // The trigger's own handler runs first, then the tooltip opens or closes.
  const thenSetOpen =
    <E,>(own: ((event: E) => void) | undefined, nextOpen: boolean) =>
    (event: E) => {
      own?.(event);
      setOpen(nextOpen);
    };
  const trigger = cloneElement(children, {
    'aria-describedby':
      [props['aria-describedby'], open ? id : undefined].filter(Boolean).join(' ') || undefined,
    onMouseEnter: thenSetOpen<MouseEvent>(props.onMouseEnter, true),
    onMouseLeave: thenSetOpen<MouseEvent>(props.onMouseLeave, false),
    onFocus: thenSetOpen<FocusEvent>(props.onFocus, true),
    onBlur: thenSetOpen<FocusEvent>(props.onBlur, false),
  });

  return (
    <span className="ui-tooltip-anchor">
      {trigger}
      {open && (
        <span role="tooltip" id={id} className={`ui-tooltip ui-tooltip--${side}`}>
          {content}
        </span>
      )}
    </span>
  );
}
