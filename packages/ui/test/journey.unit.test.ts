import { currentJourney, endJourney, journeyHeaders, startJourney } from '../src/app/journey';

/** A tab's sessionStorage, enough for the journey. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('the correlation journey', () => {
  const scope = globalThis as unknown as { window?: { sessionStorage: Storage } };
  beforeEach(() => {
    scope.window = { sessionStorage: memoryStorage() };
  });
  afterAll(() => {
    delete scope.window;
  });

  it('sends one id the gateway accepts on every write while open, and none once ended', () => {
    expect(journeyHeaders('POST')).toEqual({});
    const id = startJourney();
    expect(id).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    expect(currentJourney()).toBe(id);
    expect(journeyHeaders('POST')).toEqual({ 'x-request-id': id });
    expect(journeyHeaders('put')).toEqual({ 'x-request-id': id });
    // Reads keep ids of their own: they publish nothing.
    expect(journeyHeaders('GET')).toEqual({});
    endJourney();
    expect(currentJourney()).toBeNull();
    expect(journeyHeaders('POST')).toEqual({});
  });

  it('starts a new id each time and ignores a stored value the gateway would refuse', () => {
    const first = startJourney();
    const second = startJourney();
    expect(second).not.toBe(first);
    scope.window!.sessionStorage.setItem('journeyId', 'bad id with spaces');
    expect(currentJourney()).toBeNull();
    expect(journeyHeaders('POST')).toEqual({});
  });

  it('does without a journey where there is no storage', () => {
    delete scope.window;
    expect(startJourney()).toBeNull();
    expect(journeyHeaders('POST')).toEqual({});
  });
});
