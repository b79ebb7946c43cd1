const DUPLICATE_KEY = 11000;

export function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: number; errorResponse?: { code?: number } } | null;
  return e?.code === DUPLICATE_KEY || e?.errorResponse?.code === DUPLICATE_KEY;
}
