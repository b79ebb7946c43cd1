import type { ReactNode } from 'react';
import { Card } from '@lsp/ui';

/** The frame of the sign-in pages: one centred card with the page's single h1. */
export function AuthPage({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="ui-container shell-page">
      <Card as="div" raised className="shell-auth-card">
        <h1 style={{ fontSize: 'var(--text-2xl)' }}>{title}</h1>
        {subtitle && <p className="ui-muted">{subtitle}</p>}
        {children}
      </Card>
    </div>
  );
}
