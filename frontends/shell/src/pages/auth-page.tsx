import type { ReactNode, Ref } from 'react';
import { Card } from '@lsp/ui';

/**
 * The frame of the sign-in pages: one centred card with the page's single h1. A page that swaps its
 * content in place (a form for its confirmation) passes headingRef and moves focus to the heading.
 */
export function AuthPage({
  title,
  subtitle,
  children,
  headingRef,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <div className="ui-container shell-page">
      <Card as="div" raised className="shell-auth-card">
        <h1 ref={headingRef} tabIndex={headingRef ? -1 : undefined} style={{ fontSize: 'var(--text-2xl)' }}>
          {title}
        </h1>
        {subtitle && <p className="ui-muted">{subtitle}</p>}
        {children}
      </Card>
    </div>
  );
}
