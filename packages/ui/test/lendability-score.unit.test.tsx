import { renderToStaticMarkup } from 'react-dom/server';
import { LendabilityScoreCard } from '../src/components/lendability-score';

const TIPS = ['View the property before you apply', 'Agree a purchase price', 'Borrow at a lower LTV'];

describe('the Lendability Score card', () => {
  it('shows every improvement tip under 70, not only the first', () => {
    const html = renderToStaticMarkup(<LendabilityScoreCard score={45} tips={TIPS} />);
    for (const tip of TIPS) expect(html).toContain(tip);
    expect(html.match(/data-testid="lendability-tip"/g)).toHaveLength(3);
    expect(html).toContain('Tips to improve your score');
  });

  it('shows no tips at 70 and over', () => {
    const html = renderToStaticMarkup(<LendabilityScoreCard score={70} tips={TIPS} />);
    expect(html).not.toContain('lendability-tip');
    expect(html).not.toContain(TIPS[0]);
  });
});
