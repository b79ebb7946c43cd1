import { loanResultsFromHistory, loanResultsHistoryState } from '../src/results/loan-results-history';
import type { PendingLoanResults } from '@lsp/contracts';

const shown: PendingLoanResults = {
  results: [{ LenderName: 'Castlegate Finance', GrossLoan: 450000, NetLoan: 430000 }],
  formData: { projectName: 'Mill Lane Homes' },
  userData: null,
  timestamp: 1_700_000_000_000,
  loanType: 'development',
};

describe('the results /loan-results keeps in its history entry', () => {
  it('gives back what the page showed, so Back returns to the same results', () => {
    // A history entry's state is stored as a structured clone: the page reads a copy, not the object.
    const state = structuredClone(loanResultsHistoryState(shown));
    expect(loanResultsFromHistory(state)).toEqual(shown);
  });

  it('keeps the search run the results came from, so Send Deal and Share still name it after Back', () => {
    const withRun = { ...shown, searchRunId: 'run-1' };
    expect(loanResultsFromHistory(structuredClone(loanResultsHistoryState(withRun)))).toEqual(withRun);
  });

  it('finds nothing in an entry without results or with a damaged copy', () => {
    for (const state of [
      null,
      undefined,
      'results',
      {},
      { loanResults: null },
      { loanResults: { ...shown, results: 'none' } },
      { loanResults: { ...shown, loanType: 'mortgage' } },
    ])
      expect(loanResultsFromHistory(state)).toBeNull();
  });
});
