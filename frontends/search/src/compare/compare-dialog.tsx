import { Badge, Dialog, InfoIcon, Tabs, Tooltip } from '@lsp/ui';
import {
  GLOSSARY,
  bestValueIndexes,
  compareRows,
  marksSummary,
  rowValues,
  type GlossaryTerm,
} from './compare-rows';
import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';
import { formatCompareValue, lenderTitle, roce } from '../results/offer-format';

function GlossaryTip({ term }: { term: GlossaryTerm }) {
  const entry = GLOSSARY[term];
  return (
    <Tooltip content={<span>{entry.text}</span>}>
      <button type="button" className="sr-glossary" aria-label={`What is ${entry.term}?`}>
        <InfoIcon width={14} height={14} />
      </button>
    </Tooltip>
  );
}

function QuickHighlights({ offers, loanType }: { offers: LoanOffer[]; loanType: LoanType }) {
  const rows = compareRows(loanType);
  const best = new Map(
    rows.map((row) => [row.field, new Set(bestValueIndexes(rowValues(row, offers), row.best))]),
  );
  return (
    <div className="sr-compare-cards">
      {offers.map((offer, index) => {
        const wins = rows.filter((row) => best.get(row.field)?.has(index));
        const returnOnCapital = roce(offer);
        return (
          <section key={index} className="sr-compare-card" aria-label={lenderTitle(offer)}>
            <h3 className="sr-lender-card__name">{lenderTitle(offer)}</h3>
            <dl className="sr-figures">
              {rows.map((row) => (
                <div key={row.field} className="sr-figure">
                  <dt>{row.label}</dt>
                  <dd>
                    {formatCompareValue(offer, row.field, row.format)}
                    {best.get(row.field)?.has(index) && (
                      <Badge variant={row.mark === 'Best' ? 'success' : 'info'} className="sr-best">
                        {row.mark}
                      </Badge>
                    )}
                  </dd>
                </div>
              ))}
              {returnOnCapital !== null && (
                <div className="sr-figure">
                  <dt>ROCE</dt>
                  <dd>{returnOnCapital}</dd>
                </div>
              )}
            </dl>
            <p className="ui-muted sr-compare-card__wins">{marksSummary(wins)}</p>
          </section>
        );
      })}
    </div>
  );
}

function DetailedTable({ offers, loanType }: { offers: LoanOffer[]; loanType: LoanType }) {
  const rows = compareRows(loanType);
  return (
    <div className="sr-table-wrap" tabIndex={0} role="region" aria-label="Detailed comparison table">
      <table className="sr-compare-table">
        <caption className="ui-visually-hidden">
          {loanType === 'commercial'
            ? 'Offers side by side; the best value in each row is marked Best, the highest monthly payment Highest.'
            : 'Offers side by side; the best value in each row is marked Best.'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            {offers.map((offer, index) => (
              <th key={index} scope="col">
                {lenderTitle(offer)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const winners = new Set(bestValueIndexes(rowValues(row, offers), row.best));
            return (
              <tr key={row.field}>
                <th scope="row">
                  <span className="sr-row-label">
                    {row.label}
                    {row.glossary && <GlossaryTip term={row.glossary} />}
                  </span>
                </th>
                {offers.map((offer, index) => (
                  <td key={index} className={winners.has(index) ? 'sr-best-cell' : undefined}>
                    {formatCompareValue(offer, row.field, row.format)}
                    {winners.has(index) && (
                      <Badge variant={row.mark === 'Best' ? 'success' : 'info'} className="sr-best">
                        {row.mark}
                      </Badge>
                    )}
                  </td>
                ))}
              </tr>
            );
          })}
          {offers.some((offer) => roce(offer) !== null) && (
            <tr>
              <th scope="row">
                <span className="sr-row-label">
                  ROCE
                  <GlossaryTip term="roce" />
                </span>
              </th>
              {offers.map((offer, index) => (
                <td key={index}>{roce(offer) ?? '—'}</td>
              ))}
            </tr>
          )}
        </tbody>
      </table>
      <p className="ui-muted sr-glossary-note">
        Terms: LTC (loan to cost) <GlossaryTip term="ltc" /> · Fees <GlossaryTip term="fees" />
      </p>
    </div>
  );
}

export function CompareDialog({
  open,
  onOpenChange,
  offers,
  loanType,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  offers: LoanOffer[];
  loanType: LoanType;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Compare ${offers.length} ${offers.length === 1 ? 'Deal' : 'Deals'}`}
      description={
        loanType === 'commercial'
          ? 'The best value in each row is marked Best; the highest monthly payment is marked Highest.'
          : 'The best value in each row is marked Best.'
      }
      size="xl"
    >
      <Tabs
        label="Comparison views"
        items={[
          {
            value: 'highlights',
            label: 'Quick Highlights',
            content: <QuickHighlights offers={offers} loanType={loanType} />,
          },
          {
            value: 'table',
            label: 'Detailed Table',
            content: <DetailedTable offers={offers} loanType={loanType} />,
          },
        ]}
      />
    </Dialog>
  );
}
