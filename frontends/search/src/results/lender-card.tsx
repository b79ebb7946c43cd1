import { Badge, Button } from '@lsp/ui';
import type { ReactNode } from 'react';
import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';
import { arrangementFee, lenderTitle, money, ratePm, roce, tmc } from './offer-format';

interface LenderCardProps {
  offer: LoanOffer;
  loanType: LoanType;
  compact: boolean;
  selected: boolean;
  compareDisabled: boolean;
  onToggleCompare: () => void;
  onDetails: () => void;
  /** The action buttons under the figures (Get DIP, Send Deal, or the loan-results set). */
  actions: ReactNode;
}

function Figure({ label, value, strong }: { label: string; value: ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? 'sr-figure sr-figure--strong' : 'sr-figure'}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function LenderCard({
  offer,
  loanType,
  compact,
  selected,
  compareDisabled,
  onToggleCompare,
  onDetails,
  actions,
}: LenderCardProps) {
  const name = lenderTitle(offer);
  const commercial = loanType === 'commercial';
  const returnOnCapital = commercial ? null : roce(offer);
  return (
    <article
      className={selected ? 'sr-lender-card sr-lender-card--selected' : 'sr-lender-card'}
      aria-label={name}
    >
      <header className="sr-lender-card__header">
        <h3 className="sr-lender-card__name">{name}</h3>
        {selected && <Badge variant="brand">Comparing</Badge>}
      </header>
      <dl className="sr-figures">
        <Figure label="Net loan" value={money(offer.netLoan)} strong />
        <Figure label="Interest rate" value={ratePm(offer)} strong />
        <Figure label="Gross loan" value={money(offer.grossLoan)} />
        <Figure label="Deposit" value={money(offer.deposit)} />
        {!compact && (
          <>
            <Figure label="True monthly cost" value={tmc(offer)} />
            <Figure label="Arrangement fee" value={arrangementFee(offer)} />
            {commercial ? (
              <>
                <Figure label="Monthly payment" value={money(offer.monthlyPayment)} />
                <Figure label="Lifetime cost (20 years)" value={money(offer.lifetimeCost)} />
              </>
            ) : (
              <Figure label="Profit forecast" value={money(offer.profit)} />
            )}
            {returnOnCapital !== null && <Figure label="ROCE" value={returnOnCapital} />}
          </>
        )}
      </dl>
      <div className="sr-lender-card__actions">
        <Button
          size="sm"
          variant={selected ? 'primary' : 'ghost'}
          aria-pressed={selected}
          aria-label={`Compare ${name}`}
          disabled={compareDisabled}
          title={compareDisabled ? 'You can compare up to 3 deals' : undefined}
          onClick={onToggleCompare}
        >
          {selected ? 'Selected to compare' : 'Compare'}
        </Button>
        {actions}
        <Button size="sm" variant="link" onClick={onDetails} aria-label={`Details for ${name}`}>
          Details
        </Button>
      </div>
    </article>
  );
}
