import { useHarness } from '@lsp/testing';
import { leadModel } from '../src/data/models/leads';
import { BRIDGING_PAYLOAD, COMMERCIAL_PAYLOAD, LEAD, envelopeOf, startSearchHarness } from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('POST /api/leads through the gateway', () => {
  const h = useHarness(startSearchHarness);

  const leadCount = () => leadModel(h.mongo).countDocuments();
  /** A bridging search answering Yes to the three readiness questions (viewed, owns property, agreed price). */
  const READY_BRIDGING_SEARCH = {
    searchType: 'bridging',
    searchPayload: {
      ...BRIDGING_PAYLOAD,
      hasViewedProperty: true,
      ownsProperty: true,
      agreedPurchasePrice: true,
    },
  };

  it('stores the lead per the leads model with its Lendability Score, and writes lead.captured', async () => {
    const res = await h.client().post('/api/leads', {
      ...LEAD,
      ...READY_BRIDGING_SEARCH,
    });
    expect(res.status).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    const stored = await leadModel(h.mongo).findById(body.lead.id).lean();
    expect(stored).toMatchObject({
      name: LEAD.name,
      email: LEAD.email,
      phone: LEAD.phone,
      propertiesOwned: '2-4',
      contactPreference: 'Email',
      consent: true,
      searchType: 'bridging',
      userId: null,
    });
    expect(stored?.searchPayload).toMatchObject({
      projectName: BRIDGING_PAYLOAD.projectName,
      currentValue: 650000,
    });
    expect(stored?.createdAt).toBeInstanceOf(Date);
    // All three readiness answers Yes (30), 2-4 properties (15), London (10).
    expect(body.lendabilityScore.factors).toEqual(
      expect.arrayContaining([
        { factor: 'experience', points: 15, max: 20 },
        { factor: 'location', points: 10, max: 10 },
        { factor: 'viewedProperty', points: 10, max: 10 },
        { factor: 'ownsProperty', points: 10, max: 10 },
        { factor: 'agreedPrice', points: 10, max: 10 },
      ]),
    );
    expect(stored?.lendabilityScore.score).toBe(body.lendabilityScore.score);
    const [event] = (await h.outboxEntries('lead.captured'))
      .map(envelopeOf)
      .filter((e) => e.subject === body.lead.id);
    expect(event.data).toMatchObject({
      leadId: body.lead.id,
      email: LEAD.email,
      searchType: 'bridging',
      lendabilityScore: body.lendabilityScore.score,
    });
  });

  it('gives tips when the score is below 70 and none at 70 or more', async () => {
    const weak = await h.client().post('/api/leads', {
      ...LEAD,
      propertiesOwned: '0',
      searchType: 'commercial',
      searchPayload: { ...COMMERCIAL_PAYLOAD, propertyLocation: 'Scotland' },
    });
    expect(weak.status).toBe(201);
    expect(weak.json().lendabilityScore.score).toBeLessThan(70);
    expect(weak.json().lendabilityScore.tips.length).toBeGreaterThan(0);
    const strong = await h.client().post('/api/leads', {
      ...LEAD,
      propertiesOwned: '5+',
      ...READY_BRIDGING_SEARCH,
    });
    expect(strong.json().lendabilityScore.score).toBeGreaterThanOrEqual(70);
    expect(strong.json().lendabilityScore.tips).toEqual([]);
  });

  const bad: Array<{ name: string; body: object; error: string; field: string }> = [
    {
      name: 'a one-letter name',
      body: { ...LEAD, name: ' A ' },
      error: 'Please enter your full name',
      field: 'name',
    },
    {
      name: 'an email without a dot',
      body: { ...LEAD, email: 'alex@example' },
      error: 'Please enter a valid email address',
      field: 'email',
    },
    {
      name: 'an email with a space',
      body: { ...LEAD, email: 'alex smith@example.com' },
      error: 'Please enter a valid email address',
      field: 'email',
    },
    {
      name: 'no properties owned',
      body: { ...LEAD, propertiesOwned: '' },
      error: 'Please select number of properties',
      field: 'propertiesOwned',
    },
    {
      name: 'no consent',
      body: { ...LEAD, consent: false },
      error: 'You must agree to be contacted',
      field: 'consent',
    },
    {
      name: 'consent as text',
      body: { ...LEAD, consent: 'yes' },
      error: 'You must agree to be contacted',
      field: 'consent',
    },
    {
      name: 'an unknown search type',
      body: { ...LEAD, searchType: 'mortgage' },
      error: 'Loan type must be one of development, bridging, commercial (received "mortgage")',
      field: 'searchType',
    },
    {
      name: 'an unknown contact preference',
      body: { ...LEAD, contactPreference: 'Fax' },
      error: 'Contact preference must be one of Email, Phone, WhatsApp',
      field: 'contactPreference',
    },
  ];

  it.each(bad)('refuses $name with 400 and stores nothing', async ({ body, error, field }) => {
    const before = await leadCount();
    const res = await h
      .client()
      .post('/api/leads', { searchType: 'bridging', searchPayload: BRIDGING_PAYLOAD, ...body });
    expect(res.status).toBe(400);
    expect(res.json().error).toBe(error);
    expect(res.json().fields[field]).toBe(error);
    expect(await leadCount()).toBe(before);
  });

  it('refuses a lead whose search payload is invalid, naming the field inside it', async () => {
    const before = await leadCount();
    const res = await h.client().post('/api/leads', {
      ...LEAD,
      searchType: 'commercial',
      searchPayload: { ...COMMERCIAL_PAYLOAD, mortgageTerm: 'forever' },
    });
    expect(res.status).toBe(400);
    expect(res.json().error).toBe('Search payload: Mortgage term must be a number');
    expect(res.json().fields['searchPayload.mortgageTerm']).toBe('Mortgage term must be a number');
    expect(await leadCount()).toBe(before);
  });

  it('links the lead to the signed-in caller', async () => {
    const { client, user } = await h.signedIn();
    const res = await client.post('/api/leads', {
      ...LEAD,
      searchType: 'bridging',
      searchPayload: BRIDGING_PAYLOAD,
    });
    expect(res.status).toBe(201);
    expect((await leadModel(h.mongo).findById(res.json().lead.id).lean())?.userId).toBe(user.userId);
  });
});
