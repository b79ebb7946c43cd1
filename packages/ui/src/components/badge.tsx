import type { HTMLAttributes } from 'react';
import { cx } from './class-names';

export type BadgeVariant = 'neutral' | 'brand' | 'success' | 'warning' | 'danger' | 'info';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = 'neutral', className, ...rest }: BadgeProps) {
  return <span {...rest} className={cx('ui-badge', `ui-badge--${variant}`, className)} />;
}
