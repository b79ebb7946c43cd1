import {
  PENDING_RESULTS_VALIDITY_MS,
  clearPendingResults,
  isPendingResultsFresh,
  readFreshPendingResults,
  readPendingResults,
  storePendingResults,
} from '../src/shared/pending-results';
import { createMemoryStorage } from '../src/shared/storage-keys';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const entry = {
  results: [{ LenderName: 'A', NetLoan: 100 }],
  formData: { projectName: 'P' },
  userData: { name: 'Ann', email: 'ann@example.com' },
  loanType: 'bridging' as const,
};

describe('pending results', () => {
  it('stores under pendingLoanResults with results, formData, userData, timestamp and loanType', () => {
    const storage = createMemoryStorage();
    storePendingResults(storage, entry, T0);
    expect(JSON.parse(storage.getItem('pendingLoanResults') as string)).toEqual({ ...entry, timestamp: T0 });
  });

  it('is valid for exactly one hour', () => {
    expect(PENDING_RESULTS_VALIDITY_MS).toBe(3_600_000);
    const stored = { ...entry, timestamp: T0 };
    expect(isPendingResultsFresh(stored, T0 + PENDING_RESULTS_VALIDITY_MS - 1)).toBe(true);
    expect(isPendingResultsFresh(stored, T0 + PENDING_RESULTS_VALIDITY_MS)).toBe(false);
  });

  it('returns an entry under one hour old and keeps it', () => {
    const storage = createMemoryStorage();
    storePendingResults(storage, entry, T0);
    expect(readFreshPendingResults(storage, T0 + 59 * 60_000)?.results).toHaveLength(1);
    expect(storage.getItem('pendingLoanResults')).not.toBeNull();
  });

  it('deletes an entry older than one hour', () => {
    const storage = createMemoryStorage();
    storePendingResults(storage, entry, T0);
    expect(readFreshPendingResults(storage, T0 + 61 * 60_000)).toBeNull();
    expect(storage.getItem('pendingLoanResults')).toBeNull();
  });

  it('treats a malformed entry as none and removes it', () => {
    const storage = createMemoryStorage({ pendingLoanResults: '{"results":"nope"}' });
    expect(readPendingResults(storage)).toBeNull();
    expect(storage.getItem('pendingLoanResults')).toBeNull();
    const garbage = createMemoryStorage({ pendingLoanResults: '{{{' });
    expect(readPendingResults(garbage)).toBeNull();
  });

  it('clears the entry', () => {
    const storage = createMemoryStorage();
    storePendingResults(storage, entry, T0);
    clearPendingResults(storage);
    expect(storage.getItem('pendingLoanResults')).toBeNull();
  });
});
