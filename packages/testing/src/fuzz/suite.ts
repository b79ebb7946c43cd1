// The fuzz tests of one service (describeFuzz), as each service's fuzz.int.test.ts declares them.
import { type FuzzCase, type FuzzBudget, type FuzzRoute, routeCases } from './cases';
import { SeededRandom } from './random';
import { describeAnswer, runCases, sendCase, tallyStatuses } from './sending';

/** What a fuzz file's setup hands the suite: where to send, as whom, and how to read the database. */
export interface FuzzTarget<C> {
  ctx: C;
  /** The service itself (requests go straight to it, identity headers and internal secret included). */
  serviceUrl: string;
  /** Headers per caller a route names (`as`); `user` is the default caller. */
  callers: Record<string, Record<string, string>>;
  /** The gateway in front, and the headers (session cookie, same-origin) per caller, for a sample of cases. */
  gateway?: { url: string; callers: Record<string, Record<string, string>> };
  /** A fingerprint of everything the service stores (documents per collection, hashed). */
  fingerprint(): Promise<Record<string, string>>;
  /** Keys that must never be stored, found in the service's documents. */
  unsafeKeys(): Promise<string[]>;
  close(): Promise<void>;
}

export interface FuzzSuite<C> {
  service: string;
  seed: number;
  budget: FuzzBudget;
  /** [title, caller, route]: the caller is a key of the target's `callers`. */
  routes: Array<[string, string, (ctx: C) => FuzzRoute]>;
  setup(): Promise<FuzzTarget<C>>;
  /** One in how many refused cases is sent again through the gateway (0: none). */
  gatewayEvery?: number;
  /** More tests in the same describe, on the same target (known bugs as `it.failing`). */
  more?: (target: () => FuzzTarget<C>) => void;
}

/**
 * The fuzz tests of one service: per route, every bad input is answered 4xx (never 5xx) and the
 * database is unchanged afterwards; then the inputs the schemas take anyway are answered without a
 * 5xx, and no stored document holds a `$`, dotted, NUL, `__proto__` or `constructor` key.
 */
export function describeFuzz<C>(suite: FuzzSuite<C>): void {
  const routeSeed = (name: string) =>
    [...name].reduce((hash, c) => (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0, suite.seed);
  const every = suite.gatewayEvery ?? 5;

  describe(`${suite.service} under fuzzed input (seed ${suite.seed})`, () => {
    let target: FuzzTarget<C>;
    const statuses: Record<string, number> = {};
    const started = Date.now();

    beforeAll(async () => {
      target = await suite.setup();
    });

    afterAll(async () => {
      const total = Object.values(statuses).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `[fuzz] ${suite.service}: ${total} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
          `seed ${suite.seed}, statuses ${JSON.stringify(statuses)}\n`,
      );
      await target?.close();
    });

    const casesOf = (name: string, make: (ctx: C) => FuzzRoute) =>
      routeCases(make(target.ctx), new SeededRandom(routeSeed(name)), suite.budget);

    it.each(suite.routes)(
      '%s (as %s) refuses every bad input with a 4xx and stores nothing',
      async (name, caller, make) => {
        const refusals = casesOf(name, make).filter((c) => c.mustRefuse);
        expect(refusals.length).toBeGreaterThan(3);
        const headers = target.callers[caller];
        if (!headers) throw new Error(`no caller ${caller}`);
        const before = await target.fingerprint();
        if (process.env.FUZZ_TRACE) {
          // Which case stored something: a fingerprint after every request (slow; to find a culprit).
          const stored: string[] = [];
          let last = JSON.stringify(before);
          const traced: Array<[string, FuzzCase, Record<string, string>]> = [
            ...refusals.map((c): [string, FuzzCase, Record<string, string>] => [
              target.serviceUrl,
              c,
              headers,
            ]),
            ...(target.gateway ? refusals : []).map((c): [string, FuzzCase, Record<string, string>] => [
              target.gateway!.url,
              c,
              target.gateway!.callers[caller] ?? {},
            ]),
          ];
          for (const [url, fuzzCase, sentHeaders] of traced) {
            const answer = await sendCase(url, fuzzCase, sentHeaders);
            const now = JSON.stringify(await target.fingerprint());
            if (now !== last)
              stored.push(`${url === target.serviceUrl ? '' : 'via the gateway: '}${describeAnswer(answer)}`);
            last = now;
          }
          expect(stored).toEqual([]);
        }
        const direct = await runCases(target.serviceUrl, refusals, headers);
        const sample = every ? refusals.filter((_c, i) => i % every === 0) : [];
        const viaGateway = target.gateway
          ? await runCases(target.gateway.url, sample, target.gateway.callers[caller] ?? {})
          : { answers: [], failures: [] };
        tallyStatuses([...direct.answers, ...viaGateway.answers], statuses);
        expect(direct.failures).toEqual([]);
        expect(viaGateway.failures).toEqual([]);
        expect(await target.fingerprint()).toEqual(before);
      },
    );

    it('answers the inputs the schemas take without a 5xx, and stores no unsafe key', async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const [name, caller, make] of suite.routes) {
        const tolerated = casesOf(name, make).filter((c) => !c.mustRefuse);
        const result = await runCases(target.serviceUrl, tolerated, target.callers[caller] ?? {});
        tallyStatuses(result.answers, statuses);
        failures.push(...result.failures);
        sent += tolerated.length;
      }
      expect(sent).toBeGreaterThan(0);
      expect(failures).toEqual([]);
      expect(await target.unsafeKeys()).toEqual([]);
    });

    suite.more?.(() => target);
  });
}
