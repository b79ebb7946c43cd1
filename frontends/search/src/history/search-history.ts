import { SEARCH_HISTORY_LIMIT, historyDescription, searchHistoryKey } from '@lsp/contracts';
import type { KeyValueStorage } from '../shared/storage-keys';

export interface SearchHistoryItem {
  /** The creation timestamp as a string, as the spec defines it. */
  id: string;
  type: string;
  timestamp: number;
  data: Record<string, unknown>;
  description: string;
}

export function describeSearch(type: string, data: Record<string, unknown>): string {
  return historyDescription(type, typeof data.projectName === 'string' ? data.projectName : null);
}

function isHistoryItem(value: unknown): value is SearchHistoryItem {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.id === 'string' &&
    typeof item.timestamp === 'number' &&
    typeof item.description === 'string' &&
    !!item.data &&
    typeof item.data === 'object'
  );
}

/**
 * Reads one loan type's history. Anything that is not a list of well-formed items is treated as
 * corrupt: it is logged with the spec's message and the stored entry is reset to empty.
 */
export function loadHistory(
  storage: KeyValueStorage,
  type: string,
  log: (message: string, error?: unknown) => void = console.error,
): SearchHistoryItem[] {
  const raw = storage.getItem(searchHistoryKey(type));
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed) || !parsed.every(isHistoryItem))
      throw new Error('Stored history is not a list of searches');
    return parsed.slice(0, SEARCH_HISTORY_LIMIT);
  } catch (error) {
    log('Failed to parse search history', error);
    storage.removeItem(searchHistoryKey(type));
    return [];
  }
}

function save(storage: KeyValueStorage, type: string, items: SearchHistoryItem[]): void {
  if (items.length === 0) storage.removeItem(searchHistoryKey(type));
  else storage.setItem(searchHistoryKey(type), JSON.stringify(items));
}

/** Puts a new search at the front, keeps at most ten, and writes the list back. */
export function addToHistory(
  storage: KeyValueStorage,
  type: string,
  data: Record<string, unknown>,
  now: number,
  log?: (message: string, error?: unknown) => void,
): SearchHistoryItem[] {
  const existing = loadHistory(storage, type, log);
  // Two searches in the same millisecond would share an id; bump it so removal stays exact.
  let timestamp = now;
  while (existing.some((item) => item.id === String(timestamp))) timestamp += 1;
  const item: SearchHistoryItem = {
    id: String(timestamp),
    type,
    timestamp,
    data,
    description: describeSearch(type, data),
  };
  const items = [item, ...existing].slice(0, SEARCH_HISTORY_LIMIT);
  save(storage, type, items);
  return items;
}

export function removeFromHistory(
  storage: KeyValueStorage,
  type: string,
  id: string,
  log?: (message: string, error?: unknown) => void,
): SearchHistoryItem[] {
  const items = loadHistory(storage, type, log).filter((item) => item.id !== id);
  save(storage, type, items);
  return items;
}

export function clearHistory(storage: KeyValueStorage, type: string): SearchHistoryItem[] {
  storage.removeItem(searchHistoryKey(type));
  return [];
}
