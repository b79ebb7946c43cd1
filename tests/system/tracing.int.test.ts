/**
 * The whole system with tracing on (OTLP http/json to a receiver of the test's own): a client that
 * sends a `traceparent` with its requests finds, in that one trace, the gateway's spans, the DIP
 * service's, the sharing service's handling of the `dip.created` event (carried in the envelope's
 * `traceparent`), and the PDF worker's render (carried in the BullMQ job).
 */
import { randomBytes } from 'node:crypto';
import { SEARCH_PAYLOADS, sameOrigin, signUpVerified } from '../../scripts/lib/journeys';
import { type Stack, startSystem } from './event-chain';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver';

/** How long the spans may take to arrive: batched every 100 ms, so far more than they need. */
const SPANS_WAIT_MS = 60_000;

describe('tracing across the platform (OTLP http/json)', () => {
  jest.setTimeout(600_000);
  let receiver: OtlpReceiver;
  let stack: Stack;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startSystem({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  /** Polls the receiver until `done` holds for the trace's spans, failing with what it did receive. */
  async function traceSpans(traceId: string, done: (spans: ReceivedSpan[]) => boolean) {
    const deadline = Date.now() + SPANS_WAIT_MS;
    for (;;) {
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      if (done(spans)) return spans;
      if (Date.now() > deadline) {
        const seen = spans.map((span) => `${span.service}: ${span.name}`).sort();
        throw new Error(
          `trace ${traceId} after ${SPANS_WAIT_MS} ms: ${seen.length} spans\n  ${seen.join('\n  ')}\n` +
            `refused: ${receiver.refused.join('; ') || 'none'}; spans of other traces: ${receiver.spans.length - spans.length}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('a DIP created and downloaded under one traceparent is one trace across gateway, dip, sharing and the PDF worker', async () => {
    const owner = await signUpVerified(stack.url, 'Trace Owner');
    const headers = sameOrigin(stack.url);
    const searchData = { ...SEARCH_PAYLOADS.bridging, projectName: 'Traced deal' };
    const run = await owner.client.post('/api/bridging', searchData, { headers });
    expect(run.status).toBe(200);
    const saved = await owner.client.post(
      '/api/search',
      { userId: owner.userId, loanType: 'bridging', searchData, apiResponse: run.json() },
      { headers },
    );
    expect(saved.status).toBe(201);

    // The client's own trace: each of its requests names a span of it as the parent.
    const traceId = randomBytes(16).toString('hex');
    const traceparent = () => `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const created = await owner.client.post(
      `/api/online-dip/create/${saved.json().search.id}/0`,
      { validHours: 48 },
      { headers: { ...headers, traceparent: traceparent() } },
    );
    expect(created.status).toBe(201);
    const { dipId } = created.json() as { dipId: string };
    const pdf = await owner.client.get(`/api/online-dip/pdf/${dipId}`, {
      headers: { traceparent: traceparent() },
    });
    expect(pdf.status).toBe(200);

    const spans = await traceSpans(traceId, (seen) => {
      const services = new Set(seen.map((span) => span.service));
      return (
        ['gateway', 'dip', 'pdf-worker'].every((name) => services.has(name)) &&
        seen.some((span) => span.service === 'sharing' && span.name === 'process dip.created')
      );
    });
    const services = [...new Set(spans.map((span) => span.service))].sort();
    expect(services).toEqual(expect.arrayContaining(['dip', 'gateway', 'pdf-worker', 'sharing']));
    // Every span of the trace hangs from another of it or from the client's: none starts a trace of its own.
    const ids = new Set(spans.map((span) => span.spanId));
    const orphans = spans.filter((span) => !span.parentSpanId);
    expect(orphans).toEqual([]);
    // The sharing service's handling of the event is a child of a span the DIP service wrote it in.
    const consumed = spans.find((span) => span.service === 'sharing' && span.name === 'process dip.created')!;
    expect(spans.find((span) => span.spanId === consumed.parentSpanId)?.service).toBe('dip');
    expect(ids.size).toBe(spans.length);
  });
});
