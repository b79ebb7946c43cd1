import type { ReactNode } from 'react';
import { cx } from './class-names';
import { AlertIcon, CheckIcon, InfoIcon } from './icons';

export type AlertVariant = 'info' | 'success' | 'warning' | 'danger';

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  /** Errors interrupt a screen reader; everything else waits its turn. */
  live?: boolean;
  className?: string;
}

/** A banner inside the page (shared-access notices, load errors). */
export function Alert({ variant = 'info', title, children, live, className }: AlertProps) {
  const Icon = variant === 'success' ? CheckIcon : variant === 'info' ? InfoIcon : AlertIcon;
  return (
    <div
      className={cx('ui-alert', `ui-alert--${variant}`, className)}
      role={live ? (variant === 'danger' ? 'alert' : 'status') : undefined}
    >
      <Icon style={{ flexShrink: 0, marginTop: 2 }} />
      <div>
        {title && <p className="ui-alert__title">{title}</p>}
        {children && <div className="ui-alert__body">{children}</div>}
      </div>
    </div>
  );
}
