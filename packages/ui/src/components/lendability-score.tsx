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
  /** The server's improvement tips; the first is shown when the score is under 70 (spec §9). */
  tips?: readonly string[];
  className?: string;
}

/**
 * The Lendability Score (out of 100) the search service worked out for a lead: green at 70 and over,
 * yellow at 50 and over, red below; under 70 the first improvement tip follows.
 */
export function LendabilityScoreCard({ score, tips = [], className }: LendabilityScoreCardProps) {
  const band = lendabilityBand(score);
  const { label, style } = BANDS[band];
  const tip = score < LENDABILITY_TIPS_BELOW ? tips[0] : undefined;
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
      {tip && (
        <p style={{ margin: 0 }} data-testid="lendability-tip">
          <strong>Tip:</strong> {tip}
        </p>
      )}
    </section>
  );
}
