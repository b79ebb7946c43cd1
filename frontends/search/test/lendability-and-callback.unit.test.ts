import { ADVISOR_EMAIL, ADVISOR_PHONE, callbackMessage } from '../src/shared/advisor-contact';
import { readLendabilityScore } from '../src/home/search-flow';

describe("the lead's Lendability Score as the page keeps it", () => {
  it('keeps the number and the text tips of a well-formed answer', () => {
    expect(
      readLendabilityScore({ score: 45, band: 'red', factors: [], tips: ['View the property', 3, null] }),
    ).toEqual({ score: 45, tips: ['View the property'] });
    expect(readLendabilityScore({ score: 80 })).toEqual({ score: 80, tips: [] });
  });

  it('drops anything that is not a score', () => {
    for (const answer of [null, undefined, 'score', { score: '70' }, { score: Number.NaN }, {}])
      expect(readLendabilityScore(answer)).toBeNull();
  });
});

describe('Request Callback', () => {
  it("gives the advisers' contact and names the lender", () => {
    const message = callbackMessage('Castlegate Finance');
    expect(message).toContain(ADVISOR_PHONE);
    expect(message).toContain(ADVISOR_EMAIL);
    expect(message).toContain('Castlegate Finance');
    expect(message).not.toMatch(/not available/i);
  });
});
