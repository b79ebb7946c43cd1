/**
 * The held search's run id (the search answer's SearchRunId, kept with the pending results), when it
 * looks like one: sent with the new account, so the server saves that run to it and the search is
 * there on any device after verification.
 */
export function pendingSearchRunId(pending: { searchRunId?: unknown } | null): string | undefined {
  const id = pending?.searchRunId;
  return typeof id === 'string' && /^[A-Za-z0-9-]{1,100}$/.test(id) ? id : undefined;
}
