// The tests every service runs against @lsp/contracts, written once: its routes match the declared
// ones, and it reads the events of the last release.
import { EVENT_SCHEMAS, type EventType } from '@lsp/contracts';
import { declaredApiRoutes, registeredApiRoutes } from '@lsp/service-kit';
import { releasedExamplesConsumedBy, releasedExamplesRefusedBy } from './released-events';

/**
 * Every route the service registers is declared in @lsp/contracts (registering one that is not
 * throws), and every route declared for it is registered: a declaration without a route fails here.
 * `start` builds the service (its harness); the test closes it again.
 */
export function describeRoutesDeclared(
  service: string,
  start: () => Promise<{ close(): Promise<void> }>,
): void {
  describe(`the ${service} routes and their contracts`, () => {
    it(`registers exactly the routes @lsp/contracts declares for ${service}`, async () => {
      const started = await start();
      try {
        expect(registeredApiRoutes(service)).toEqual(declaredApiRoutes(service));
      } finally {
        await started.close();
      }
    });
  });
}

const schemaOf = (type: string, version: number) => EVENT_SCHEMAS[type as EventType]?.[version];

/**
 * Every event type the service consumes (read from its src/events/, as its README's events block is),
 * in every released version and in both example shapes (every optional field, and only the required
 * ones), is read by today's payload schema of that version.
 */
export function itParsesReleasedEvents(service: string): void {
  it('parses the released example of every event type and version it consumes', async () => {
    const examples = await releasedExamplesConsumedBy(service);
    expect(examples.length).toBeGreaterThan(0);
    expect(await releasedExamplesRefusedBy(service, schemaOf)).toEqual([]);
  });
}
