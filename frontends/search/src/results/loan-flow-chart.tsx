// The breakdown's picture: one bar for the gross loan split into net loan, fees and
// interest, and one for the deposit on the same scale. An SVG named and described in words (role img),
// with a legend in text beside it; it scales to the dialog's width, 375 px included.
import { formatCurrency } from '@lsp/contracts';
import { useId } from 'react';
import type { LoanOffer } from '../shared/loan-offer';
import { type FlowSegment, loanFlow } from './loan-flow';

const WIDTH = 300;
const BAR = 22;
const GAP = 10;

function Bar({ segments, y, scale }: { segments: FlowSegment[]; y: number; scale: number }) {
  let x = 0;
  return (
    <g>
      {segments.map((s) => {
        const width = (s.amount / scale) * WIDTH;
        const rect = (
          <rect key={s.part} className={`sr-flow__${s.part}`} x={x} y={y} width={width} height={BAR} />
        );
        x += width;
        return rect;
      })}
    </g>
  );
}

export function LoanFlowChart({ offer }: { offer: LoanOffer }) {
  const id = useId();
  const flow = loanFlow(offer);
  if (!flow) return null;
  const rows = flow.deposit ? 2 : 1;
  const height = rows * BAR + (rows - 1) * GAP;
  const legend = flow.deposit ? [...flow.loan, flow.deposit] : flow.loan;
  return (
    <section aria-labelledby={`${id}-title`} className="sr-breakdown__section sr-flow">
      <h3 id={`${id}-title`} className="sr-section-title">
        Where the gross loan goes
      </h3>
      <svg
        className="sr-flow__chart"
        role="img"
        aria-labelledby={`${id}-svg-title`}
        aria-describedby={`${id}-svg-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        preserveAspectRatio="none"
        width="100%"
        height={height * 1.6}
      >
        <title id={`${id}-svg-title`}>Where the gross loan goes</title>
        <desc id={`${id}-svg-desc`}>{flow.description}</desc>
        <Bar segments={flow.loan} y={0} scale={flow.scale} />
        {flow.deposit && <Bar segments={[flow.deposit]} y={BAR + GAP} scale={flow.scale} />}
      </svg>
      <ul className="sr-flow__legend">
        {legend.map((s) => (
          <li key={s.part}>
            <span className={`sr-flow__swatch sr-flow__${s.part}`} aria-hidden="true" />
            {s.label} <strong>{formatCurrency(s.amount)}</strong>
            {s.part !== 'deposit' && <span className="ui-muted"> {s.percentOfGross.toFixed(1)}%</span>}
          </li>
        ))}
        {flow.exitFee > 0 && (
          <li>
            Exit fee <strong>{formatCurrency(flow.exitFee)}</strong>
            <span className="ui-muted"> paid when the loan is repaid</span>
          </li>
        )}
      </ul>
    </section>
  );
}
