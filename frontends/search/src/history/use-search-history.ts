import { useCallback, useMemo, useState } from 'react';
import type { LoanType } from '../shared/loan-type';
import { clearHistory, loadHistory, removeFromHistory } from './search-history';
import { browserStorage } from '../shared/storage-keys';

/**
 * One loan type's recent searches, read from browser storage when first needed and after every
 * change. Reading is idempotent (a corrupt entry is reset the first time and is then simply empty).
 */
export function useSearchHistory(type: LoanType) {
  const [version, setVersion] = useState(0);
  // `version` is the signal to read storage again after a change.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const items = useMemo(() => loadHistory(browserStorage(), type), [type, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const remove = useCallback(
    (id: string) => {
      removeFromHistory(browserStorage(), type, id);
      setVersion((v) => v + 1);
    },
    [type],
  );
  const clear = useCallback(() => {
    clearHistory(browserStorage(), type);
    setVersion((v) => v + 1);
  }, [type]);
  return { items, reload, remove, clear };
}
