import { Card } from '@lsp/ui';

const PAGES = {
  privacy: {
    title: 'Privacy policy',
    paragraphs: [
      'We use the details you give us (your name, email address, phone number and the property and loan information in your searches) to find lender offers for you, to keep your saved searches and Decisions in Principle, and to contact you about them when you have agreed to that.',
      'We share your details with a lender or broker only when you ask us to, for example when you apply or share a deal. You can ask us for a copy of your data, or for it to be deleted, at any time.',
    ],
  },
  terms: {
    title: 'Terms of use',
    paragraphs: [
      'Search results and Decisions in Principle are indicative only. Every offer is subject to the lender’s own underwriting, valuation and legal checks, and is not a binding offer of finance.',
      'Your home or property may be repossessed if you do not keep up repayments on a loan secured on it.',
    ],
  },
  cookies: {
    title: 'Cookie policy',
    paragraphs: [
      'We use one essential cookie to keep you signed in. It is removed when you sign out or after a week without a visit.',
      'Your recent searches are kept in your own browser’s storage so you can reload them; clearing your browser data removes them.',
    ],
  },
} as const;

export type LegalPageName = keyof typeof PAGES;

export function LegalPage({ page }: { page: LegalPageName }) {
  const { title, paragraphs } = PAGES[page];
  return (
    <div className="ui-container shell-page">
      <Card as="article" style={{ maxWidth: 760, margin: '0 auto' }}>
        <h1 style={{ fontSize: 'var(--text-2xl)' }}>{title}</h1>
        {paragraphs.map((text) => (
          <p key={text.slice(0, 24)}>{text}</p>
        ))}
      </Card>
    </div>
  );
}
