import { useHarness } from '@lsp/testing';
import {
  BRIDGING_PAYLOAD,
  COMMERCIAL_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  LEAD,
  envelopeOf,
  startSearchHarness,
} from './search-harness';
import { searchRunModels } from '../src/data/models/search-runs';
import { leadModel } from '../src/data/models/leads';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('search runs through the gateway', () => {
  const h = useHarness(startSearchHarness);

  const runsOf = (loanType: 'development' | 'bridging' | 'commercial') => searchRunModels(h.mongo)[loanType];

  it('reports the active lender panel in its health check', async () => {
    const res = await h.search.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks['lender-panel']).toEqual({ status: 'ok' });
  });

  it('answers a development search with offers, declined lenders with reasons and a summary', async () => {
    const res = await h.client().post('/api/development', DEVELOPMENT_PAYLOAD);
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.Results.length).toBeGreaterThan(0);
    for (const offer of body.data.Results) {
      expect(offer.LoanType).toBe('development');
      expect(offer.GrossLoan).toBeGreaterThan(0);
      expect(offer.qualifiesBecause.length).toBeGreaterThan(0);
    }
    const summary = body.data.Summary;
    expect(summary.resultCount).toBe(body.data.Results.length);
    expect(summary.declinedCount).toBe(body.data.Declined.length);
    expect(summary.declinedByReason.reduce((sum: number, r: { count: number }) => sum + r.count, 0)).toBe(
      summary.declinedCount,
    );
    expect(summary.lendersSearched).toBe(h.panels.current().lenders.length);
    expect(body.data.Declined.every((d: { reason: string }) => d.reason.length > 0)).toBe(true);
    expect(body.data.LendabilityScore).toBeUndefined();
  });

  it('records the run in development_searches and writes search.completed to the outbox in the same step', async () => {
    const res = await h
      .client()
      .post('/api/development', { ...DEVELOPMENT_PAYLOAD, projectName: 'Outbox check' });
    const runId = res.json().data.SearchRunId;
    const run = await runsOf('development').findById(runId).lean();
    expect(run).toMatchObject({
      projectName: 'Outbox check',
      purchasePrice: 1_200_000,
      landCosts: 1_260_000,
      contingencyPercentage: 5,
      applicationStatus: 'not_submitted',
      userId: null,
      resultCount: res.json().data.Results.length,
    });
    const events = (await h.outboxEntries('search.completed'))
      .map(envelopeOf)
      .filter((e) => e.subject === runId);
    expect(events).toHaveLength(1);
    expect(events[0].source).toBe('/services/search');
    expect(events[0].data).toMatchObject({
      searchRunId: runId,
      loanType: 'development',
      resultCount: res.json().data.Results.length,
      panelVersion: h.panels.current().version,
    });
    expect(events[0].data.userId).toBeUndefined();
    expect(events[0].data.bestRate).toBe(
      Math.min(...res.json().data.Results.map((o: { InterestRate: number }) => o.InterestRate)),
    );
  });

  it('sizes development on the total build cost and professional fees entered, and stores them', async () => {
    const derived = (await h.client().post('/api/development', DEVELOPMENT_PAYLOAD)).json();
    const entered = {
      ...DEVELOPMENT_PAYLOAD,
      projectName: 'Entered costs',
      totalBuildCost: '1,000,000',
      profCostsAndFees: '50,000.50',
    };
    const res = await h.client().post('/api/development', entered);
    expect(res.status).toBe(200);
    const body = res.json();
    const byProduct = new Map(
      derived.data.Results.map((o: { ProductId: string; TotalProjectCost: number }) => [o.ProductId, o]),
    );
    const both = body.data.Results.filter((o: { ProductId: string }) => byProduct.has(o.ProductId));
    expect(both.length).toBeGreaterThan(0);
    for (const offer of body.data.Results) expect(offer.TotalBuildCost).toBe(1_000_000);
    for (const offer of both) {
      const before = byProduct.get(offer.ProductId) as { TotalProjectCost: number; TotalBuildCost: number };
      expect(before.TotalBuildCost).toBe(945_000);
      // 1,000,000 + 50,000.50 instead of 945,000 + 90,000: £15,000.50 more.
      expect(offer.TotalProjectCost - before.TotalProjectCost).toBeCloseTo(15_000.5, -1);
    }
    const run = await runsOf('development').findById(body.data.SearchRunId).lean();
    expect(run).toMatchObject({ totalBuildCost: 1_000_000, profCostsAndFees: 50_000.5 });
  });

  it('records the signed-in caller on the run and in the event', async () => {
    const { client, user } = await h.signedIn();
    const res = await client.post('/api/commercial', { ...COMMERCIAL_PAYLOAD, userId: user.userId });
    expect(res.status).toBe(200);
    const runId = res.json().data.SearchRunId;
    expect((await runsOf('commercial').findById(runId).lean())?.userId).toBe(user.userId);
    const [event] = (await h.outboxEntries('search.completed'))
      .map(envelopeOf)
      .filter((e) => e.subject === runId);
    expect(event.data.userId).toBe(user.userId);
  });

  it("refuses a signed-in caller's search made in another user's name with 403 and stores nothing", async () => {
    const { client } = await h.signedIn();
    const before = await runsOf('commercial').countDocuments();
    const res = await client.post('/api/commercial', { ...COMMERCIAL_PAYLOAD, userId: 'someone-else' });
    expect(res.status).toBe(403);
    expect(res.json().success).toBe(false);
    expect(await runsOf('commercial').countDocuments()).toBe(before);
  });

  it('ignores a user id claimed by an anonymous caller', async () => {
    const res = await h.client().post('/api/commercial', { ...COMMERCIAL_PAYLOAD, userId: 'claimed-user' });
    expect(res.status).toBe(200);
    expect((await runsOf('commercial').findById(res.json().data.SearchRunId).lean())?.userId).toBeNull();
  });

  it('answers a bridging search with message and debugInfo about the purchase costs', async () => {
    const res = await h.client().post('/api/bridging', BRIDGING_PAYLOAD);
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe(
      body.data.Results.length
        ? `Found ${body.data.Results.length} bridging loan options`
        : 'No loan results found for your criteria',
    );
    expect(body.debugInfo).toEqual({
      purchaseCostsReceived: 25000,
      purchaseCostsSentToAPI: 25000,
      totalProjectCost: 625000,
      endpointUsed: 'bridging/bridgingPurchaseOrRefinance',
    });
    expect(await runsOf('bridging').countDocuments({ _id: body.data.SearchRunId })).toBe(1);
  });

  it('answers a search no lender takes with an empty list, every lender declined and a null best rate', async () => {
    const res = await h.client().post('/api/bridging', { ...BRIDGING_PAYLOAD, loanTerm: 600 });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'No loan results found for your criteria',
      data: { Results: [] },
    });
    const { declinedCount, lendersSearched, lendersWithoutProduct } = body.data.Summary;
    expect(lendersSearched).toBe(h.panels.current().lenders.length);
    expect(declinedCount).toBe(lendersSearched - lendersWithoutProduct);
    expect(body.data.Declined).toHaveLength(declinedCount);
    expect(body.data.Summary.declinedByReason.length).toBeGreaterThan(0);
    const [event] = (await h.outboxEntries('search.completed'))
      .map(envelopeOf)
      .filter((e) => e.subject === body.data.SearchRunId);
    expect(event.data).toMatchObject({ resultCount: 0, bestRate: null });
  });

  it('applies the spec defaults to a bridging payload that leaves them out', async () => {
    const res = await h
      .client()
      .post('/api/bridging', { projectName: 'Defaults only', loanTerm: 12, maxLoanRequired: true });
    expect(res.status).toBe(200);
    const run = await runsOf('bridging').findById(res.json().data.SearchRunId).lean();
    expect(run).toMatchObject({
      bridgingType: 'bridgingPurchaseOrRefinance',
      propertyLocation: 'London',
      propertyClass: 'Residential',
      ownOrPurchase: 'Own',
      landOrProperty: 'Property',
      planningPermissionType: 'NoPlanning',
      refurbishmentLevel: 'Light',
      refinancedUnits: 1,
    });
  });

  it('scores a search that comes with a lead and stores the lead with lead.captured', async () => {
    const res = await h.client().post('/api/development', { ...DEVELOPMENT_PAYLOAD, lead: LEAD });
    expect(res.status).toBe(200);
    const { LendabilityScore: score, SearchRunId: runId } = res.json().data;
    expect(score.score).toBe(score.factors.reduce((sum: number, f: { points: number }) => sum + f.points, 0));
    expect(score.score).toBeLessThanOrEqual(100);
    // viewed and agreed price were Yes, owns was No: 10 + 0 + 10 from the readiness factors
    expect(
      score.factors
        .filter((f: { factor: string }) =>
          ['viewedProperty', 'ownsProperty', 'agreedPrice'].includes(f.factor),
        )
        .map((f: { points: number }) => f.points),
    ).toEqual([10, 0, 10]);
    const lead = await leadModel(h.mongo).findOne({ searchRunId: runId }).lean();
    expect(lead).toMatchObject({ email: LEAD.email, searchType: 'development', consent: true });
    expect(lead?.lendabilityScore.score).toBe(score.score);
    const captured = (await h.outboxEntries('lead.captured'))
      .map(envelopeOf)
      .filter((e) => e.subject === lead?._id);
    expect(captured).toHaveLength(1);
    expect(captured[0].data.lendabilityScore).toBe(score.score);
  });

  it('refuses a search whose lead is invalid with the lead message and stores neither', async () => {
    const runsBefore = await runsOf('development').countDocuments();
    const leadsBefore = await leadModel(h.mongo).countDocuments();
    const res = await h
      .client()
      .post('/api/development', { ...DEVELOPMENT_PAYLOAD, lead: { ...LEAD, consent: false } });
    expect(res.status).toBe(400);
    expect(res.json().error).toBe('You must agree to be contacted');
    expect(res.json().fields['lead.consent']).toBe('You must agree to be contacted');
    expect(await runsOf('development').countDocuments()).toBe(runsBefore);
    expect(await leadModel(h.mongo).countDocuments()).toBe(leadsBefore);
  });
});
