import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './class-names';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  subtitle?: ReactNode;
  /** Heading level of the title, so pages keep a correct outline. */
  headingLevel?: 2 | 3 | 4;
  raised?: boolean;
  as?: 'section' | 'article' | 'div';
}

export function Card({
  title,
  subtitle,
  headingLevel = 2,
  raised,
  as: Tag = 'section',
  className,
  children,
  ...rest
}: CardProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <Tag {...rest} className={cx('ui-card', raised && 'ui-card--raised', className)}>
      {(title || subtitle) && (
        <div className="ui-card__header">
          {title && <Heading className="ui-card__title">{title}</Heading>}
          {subtitle && <p className="ui-card__subtitle">{subtitle}</p>}
        </div>
      )}
      {children}
    </Tag>
  );
}
