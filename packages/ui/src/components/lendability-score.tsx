// The bands and limits are the contracts', imported from their own modules so the shell's initial
// bundle (which carries @lsp/ui) does not pull in the zod schemas of the contracts' index.
import { LENDABILITY_SCORE_MAX, LENDABILITY_TIPS_BELOW } from '@lsp/contracts/src/common/constants';
import { lendabilityBand, type LendabilityBand } from '@lsp/contracts/src/display/lendability';
import type { CSSProperties } from 'react';

/** Band colours on the design tokens; the word beside the number says the same for those who cannot see it. */
const BANDS: Record<LendabilityBand, { label: string; style: CSSProperties }> = {
  green: {
    label: 'Strong',
    style: { color: 'var(--color-success-700)', background: 'var(--color-success-100)' },
  },
  yellow: {
    label: 'Fair',
    style: { color: 'var(--color-warning-700)', background: 'var(--color-warning-100)' },
  },
  red: {
    label: 'Weak',
    style: { color: 'var(--color-danger-700)', background: 'var(--color-danger-100)' },
  },
};

export interface LendabilityScoreCardProps {
  score: number;
  /** The server's improvement tips; all of them are shown when the score is under 70. */
  tips?: readonly string[];
  className?: string;
}

/**
 * The Lendability Score (out of 100) the search service worked out for a lead: green at 70 and over,
 * yellow at 50 and over, red below; under 70 every improvement tip follows, one to a line.
 */
export function LendabilityScoreCard({ score, tips = [], className }: LendabilityScoreCardProps) {
  const band = lendabilityBand(score);
  const { label, style } = BANDS[band];
  const shownTips = score < LENDABILITY_TIPS_BELOW ? tips : [];
  return (
    <section
      className={['ui-card', className].filter(Boolean).join(' ')}
      aria-labelledby="lendability-score-title"
      data-testid="lendability-score"
      style={{ padding: 'var(--space-4)', display: 'grid', gap: 'var(--space-2)' }}
    >
      <h2 id="lendability-score-title" style={{ fontSize: 'var(--text-lg)', margin: 0 }}>
        Your Lendability Score
      </h2>
      <p
        style={{ margin: 0, display: 'flex', alignItems: 'center', gap: 'var(--space-3)', flexWrap: 'wrap' }}
      >
        <span
          className="ui-lendability-score"
          data-band={band}
          style={{
            ...style,
            fontSize: 'var(--text-2xl, 1.5rem)',
            fontWeight: 700,
            padding: 'var(--space-1) var(--space-3)',
            borderRadius: '999px',
          }}
        >
          {score}
          <span style={{ fontSize: 'var(--text-sm)', fontWeight: 600 }}> / {LENDABILITY_SCORE_MAX}</span>
        </span>
        <span style={{ color: style.color, fontWeight: 600 }}>{label}</span>
      </p>
      {shownTips.length > 0 && (
        <>
          <h3 id="lendability-tips-title" style={{ fontSize: 'var(--text-base)', margin: 0 }}>
            {shownTips.length === 1 ? 'Tip to improve your score' : 'Tips to improve your score'}
          </h3>
          <ul aria-labelledby="lendability-tips-title" style={{ margin: 0, paddingLeft: 'var(--space-5)' }}>
            {shownTips.map((tip) => (
              <li key={tip} data-testid="lendability-tip">
                {tip}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
