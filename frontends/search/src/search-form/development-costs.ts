import { CONTINGENCY_DEFAULT_PERCENT, PROFESSIONAL_FEES_FRACTION } from '@lsp/contracts';

/**
 * Development form: total build cost is the build cost plus contingency, and professional costs and
 * fees are assumed at 10% of the build cost. When the contingency is already inside the build cost
 * nothing is added; an empty or zero percentage falls back to the 5% default, as the form's rule says.
 */
export function derivedBuildCosts(input: {
  buildCost: number | null | undefined;
  contingencyIncluded?: boolean;
  contingencyPercentage?: number | null;
}): {
  totalBuildCost: number | undefined;
  profCostsAndFees: number | undefined;
} {
  const buildCost = input.buildCost;
  if (buildCost === null || buildCost === undefined || !Number.isFinite(buildCost) || buildCost <= 0) {
    return { totalBuildCost: undefined, profCostsAndFees: undefined };
  }
  const percent =
    input.contingencyPercentage && input.contingencyPercentage > 0
      ? input.contingencyPercentage
      : CONTINGENCY_DEFAULT_PERCENT;
  const contingency = input.contingencyIncluded ? 0 : (buildCost * percent) / 100;
  return {
    totalBuildCost: Math.round(buildCost + contingency),
    profCostsAndFees: Math.round(buildCost * PROFESSIONAL_FEES_FRACTION * 100) / 100,
  };
}
