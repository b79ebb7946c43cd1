/**
 * Starts a harness before the tests of the enclosing describe block (or file) and closes it after
 * them, as every service's integration tests do. The handle is filled in by that beforeAll, so read
 * its fields only inside hooks and tests. Jest runs afterAll hooks in the order they are declared:
 * one declared after this call runs once the harness has closed, so whatever must stop before the
 * harness does belongs in the harness (or in a describe of its own).
 */
export function useHarness<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  const harness = {} as T;
  beforeAll(async () => {
    Object.assign(harness, await start());
  });
  afterAll(async () => {
    // Nothing to close when the start failed: the beforeAll's error is the one to report.
    if (typeof harness.close === 'function') await harness.close();
  });
  return harness;
}
