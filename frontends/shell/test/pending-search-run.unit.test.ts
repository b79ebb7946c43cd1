import { pendingSearchRunId } from '../src/auth/pending-search-run';

describe('the held search a new account is created with', () => {
  it('sends the run id the search answered with', () => {
    const runId = '0b7d4f3e-9c1a-4e8b-a5f2-3d6c7e8f9a01';
    expect(pendingSearchRunId({ searchRunId: runId })).toBe(runId);
  });

  it('sends nothing without held results, without a run id, or with one the server would refuse', () => {
    expect(pendingSearchRunId(null)).toBeUndefined();
    expect(pendingSearchRunId({})).toBeUndefined();
    expect(pendingSearchRunId({ searchRunId: 42 })).toBeUndefined();
    expect(pendingSearchRunId({ searchRunId: '{"$ne":null}' })).toBeUndefined();
    expect(pendingSearchRunId({ searchRunId: 'a'.repeat(101) })).toBeUndefined();
  });
});
