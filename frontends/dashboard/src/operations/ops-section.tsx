import type { ReactNode } from 'react';

/** A section of the ops console under its own heading, which names the section for screen readers. */
export function OpsSection({
  titleId,
  title,
  children,
}: {
  titleId: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="ops-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </section>
  );
}
