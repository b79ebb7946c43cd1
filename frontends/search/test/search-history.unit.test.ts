import { searchHistoryKey } from '@lsp/contracts';
import {
  addToHistory,
  clearHistory,
  describeSearch,
  loadHistory,
  removeFromHistory,
} from '../src/history/search-history';
import { createMemoryStorage } from '../src/shared/storage-keys';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

describe('search history', () => {
  it('stores each loan type under loan-search-history-<type>', () => {
    const storage = createMemoryStorage();
    addToHistory(storage, 'bridging', { projectName: 'Mill Lane' }, T0);
    expect(Object.keys(storage.dump())).toEqual(['loan-search-history-bridging']);
    expect(searchHistoryKey('commercial')).toBe('loan-search-history-commercial');
  });

  it('puts the newest search first with its timestamp as id and the spec description', () => {
    const storage = createMemoryStorage();
    addToHistory(storage, 'development', { projectName: 'First' }, T0);
    const items = addToHistory(storage, 'development', { projectName: 'Second' }, T0 + 5000);
    expect(items.map((item) => item.description)).toEqual([
      'Second - Development Finance',
      'First - Development Finance',
    ]);
    expect(items[0]).toMatchObject({
      id: String(T0 + 5000),
      type: 'development',
      timestamp: T0 + 5000,
      data: { projectName: 'Second' },
    });
    expect(loadHistory(storage, 'development')).toEqual(items);
  });

  it('keeps at most ten searches per type, dropping the oldest', () => {
    const storage = createMemoryStorage();
    for (let i = 0; i < 12; i += 1) addToHistory(storage, 'commercial', { projectName: `P${i}` }, T0 + i);
    const items = loadHistory(storage, 'commercial');
    expect(items).toHaveLength(10);
    expect(items[0].data.projectName).toBe('P11');
    expect(items[9].data.projectName).toBe('P2');
  });

  it('gives two searches in the same millisecond distinct ids', () => {
    const storage = createMemoryStorage();
    addToHistory(storage, 'bridging', { projectName: 'A' }, T0);
    const items = addToHistory(storage, 'bridging', { projectName: 'B' }, T0);
    expect(new Set(items.map((item) => item.id)).size).toBe(2);
  });

  it('describes unnamed projects and unknown types as the spec says', () => {
    expect(describeSearch('development', { projectName: '  ' })).toBe(
      'Unnamed Project - Development Finance',
    );
    expect(describeSearch('bridging', {})).toBe('Unnamed Project - Bridging Finance');
    expect(describeSearch('commercial', { projectName: 'Unit 4' })).toBe('Unit 4 - Commercial Finance');
    expect(describeSearch('other', { projectName: 'X' })).toBe('X - Previous search');
  });

  it('removes one item and writes the rest back', () => {
    const storage = createMemoryStorage();
    addToHistory(storage, 'bridging', { projectName: 'A' }, T0);
    addToHistory(storage, 'bridging', { projectName: 'B' }, T0 + 1);
    const items = removeFromHistory(storage, 'bridging', String(T0));
    expect(items.map((item) => item.data.projectName)).toEqual(['B']);
    expect(loadHistory(storage, 'bridging').map((item) => item.data.projectName)).toEqual(['B']);
  });

  it('clearing removes the stored entry and leaves other types alone', () => {
    const storage = createMemoryStorage();
    addToHistory(storage, 'bridging', { projectName: 'A' }, T0);
    addToHistory(storage, 'development', { projectName: 'B' }, T0);
    expect(clearHistory(storage, 'bridging')).toEqual([]);
    expect(storage.getItem('loan-search-history-bridging')).toBeNull();
    expect(loadHistory(storage, 'development')).toHaveLength(1);
  });

  it.each([
    ['text that is not JSON', '{not json'],
    ['JSON that is not a list', '{"id":"1"}'],
    ['a list with a malformed item', '[{"id":1,"description":"x"}]'],
  ])('resets corrupt history (%s) to empty and logs "Failed to parse search history"', (_label, stored) => {
    const storage = createMemoryStorage({ 'loan-search-history-development': stored });
    const log = jest.fn();
    expect(loadHistory(storage, 'development', log)).toEqual([]);
    expect(log).toHaveBeenCalledWith('Failed to parse search history', expect.anything());
    expect(storage.getItem('loan-search-history-development')).toBeNull();
  });

  it('adds to a corrupt history by starting a fresh list', () => {
    const storage = createMemoryStorage({ 'loan-search-history-bridging': 'garbage' });
    const items = addToHistory(storage, 'bridging', { projectName: 'New' }, T0, () => undefined);
    expect(items).toHaveLength(1);
    expect(JSON.parse(storage.getItem('loan-search-history-bridging') as string)).toHaveLength(1);
  });
});
