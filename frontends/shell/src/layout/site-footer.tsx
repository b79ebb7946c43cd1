import { Link } from 'react-router-dom';

const SECTIONS = [
  {
    title: 'Services',
    links: [
      { label: 'Development Finance', to: '/' },
      { label: 'Bridging Finance', to: '/' },
      { label: 'Commercial Loans', to: '/' },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Your dashboard', to: '/dashboard' },
      { label: 'Create an account', to: '/register' },
      { label: 'Resend verification email', to: '/verify-email' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy policy', to: '/privacy' },
      { label: 'Terms of use', to: '/terms' },
      { label: 'Cookie policy', to: '/cookies' },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="shell-footer">
      <div className="ui-container">
        <div className="shell-footer__grid">
          <div>
            <h2>LoanSearch UK</h2>
            <p>
              Compare specialist UK lenders for development finance, bridging loans and commercial mortgages
              in one search.
            </p>
          </div>
          {SECTIONS.map((section) => (
            <nav key={section.title} aria-label={section.title}>
              <h2>{section.title}</h2>
              <ul>
                {section.links.map((link) => (
                  <li key={link.label}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <p className="shell-footer__legal">
          © {new Date().getFullYear()} LoanSearch UK. Indicative terms only: every offer is subject to the
          lender&apos;s underwriting and valuation.
        </p>
      </div>
    </footer>
  );
}
