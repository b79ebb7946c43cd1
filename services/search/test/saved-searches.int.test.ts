import { savedSearchModel } from '../src/data/models/saved-searches';
import {
  BRIDGING_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  type SearchHarness,
  envelopeOf,
  runAndSaveSearch,
  startSearchHarness,
} from './search-harness';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('saved searches through the gateway', () => {
  let h: SearchHarness;

  beforeAll(async () => {
    h = await startSearchHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  const savedCount = () => savedSearchModel(h.mongo).countDocuments();

  describe('POST /api/search', () => {
    it('saves a search for the signed-in user and answers its id', async () => {
      const { client, user } = await h.signedIn();
      const { run, id } = await runAndSaveSearch(client, user.userId);
      const stored = await savedSearchModel(h.mongo).findById(id).lean();
      expect(stored).toMatchObject({
        user_id: user.userId,
        loan_type: 'development',
        project_name: DEVELOPMENT_PAYLOAD.projectName,
        session_id: run.data.SearchRunId,
        result_count: run.data.Results.length,
        application_status: 'not_submitted',
      });
    });

    it('writes search.saved to the outbox with the result count and the panel version of its offers', async () => {
      const { client, user } = await h.signedIn();
      const { run, id } = await runAndSaveSearch(client, user.userId);
      const events = (await h.outboxEntries('search.saved')).map(envelopeOf).filter((e) => e.subject === id);
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual({
        searchId: id,
        userId: user.userId,
        loanType: 'development',
        projectName: DEVELOPMENT_PAYLOAD.projectName,
        resultCount: run.data.Results.length,
        offers: run.data.Results,
        searchData: DEVELOPMENT_PAYLOAD,
        savedAt: expect.any(String),
        panelVersion: run.data.Summary.panelVersion,
      });
    });

    it('passes on only the offers the server computed: a forged rate or a response with no run is left out', async () => {
      const { client, user } = await h.signedIn();
      const run = (
        await client.post('/api/development', { ...DEVELOPMENT_PAYLOAD, userId: user.userId })
      ).json();
      const [first, second, ...rest] = run.data.Results;
      const forged = {
        ...run,
        data: { ...run.data, Results: [{ ...first, InterestRate: 0.001 }, second, ...rest] },
      };
      const saveWith = async (apiResponse: unknown) => {
        const saved = await client.post('/api/search', {
          userId: user.userId,
          loanType: 'development',
          searchData: DEVELOPMENT_PAYLOAD,
          apiResponse,
        });
        expect(saved.status).toBe(201);
        const id = saved.json().search.id as string;
        const [event] = (await h.outboxEntries('search.saved'))
          .map(envelopeOf)
          .filter((e) => e.subject === id);
        return event.data.offers as Array<{ ProductId: string }>;
      };
      const offers = await saveWith(forged);
      expect(offers.map((o) => o.ProductId)).toEqual([second, ...rest].map((o) => o.ProductId));
      const withoutRun = await saveWith({ success: true, data: { Results: run.data.Results } });
      expect(withoutRun).toEqual([]);
    });

    it('answers 401 with a message when nobody is signed in, and stores nothing', async () => {
      const before = await savedCount();
      const res = await h
        .client()
        .post('/api/search', { userId: 'u1', loanType: 'development', searchData: {}, apiResponse: [] });
      expect(res.status).toBe(401);
      expect(res.json().message).toBe('Authentication required');
      expect(await savedCount()).toBe(before);
    });

    it("refuses to save into another user's account with 403 and a message about the user id", async () => {
      const { client } = await h.signedIn();
      const before = await savedCount();
      const res = await client.post('/api/search', {
        userId: 'someone-else',
        loanType: 'bridging',
        searchData: BRIDGING_PAYLOAD,
        apiResponse: [],
      });
      expect(res.status).toBe(403);
      expect(res.json().message).toMatch(/user id/);
      expect(await savedCount()).toBe(before);
    });

    it('refuses a bad body with 400 and a message naming the problem', async () => {
      const { client, user } = await h.signedIn();
      const before = await savedCount();
      const unknownType = await client.post('/api/search', {
        userId: user.userId,
        loanType: 'mortgage',
        searchData: {},
        apiResponse: [],
      });
      expect(unknownType.status).toBe(400);
      expect(unknownType.json().message).toBe(
        'Loan type must be one of development, bridging, commercial (received "mortgage")',
      );
      const noData = await client.post('/api/search', {
        userId: user.userId,
        loanType: 'bridging',
        searchData: 'text',
        apiResponse: [],
      });
      expect(noData.status).toBe(400);
      expect(noData.json().message).toBe('Search payload must be an object');
      expect(await savedCount()).toBe(before);
    });
  });

  describe('GET /api/user-searches/:userId', () => {
    it("lists only the caller's searches, newest first", async () => {
      const { client, user } = await h.signedIn();
      const other = await h.signedIn();
      const first = await runAndSaveSearch(client, user.userId, {
        ...DEVELOPMENT_PAYLOAD,
        projectName: 'First',
      });
      const second = await runAndSaveSearch(client, user.userId, {
        ...DEVELOPMENT_PAYLOAD,
        projectName: 'Second',
      });
      await runAndSaveSearch(other.client, other.user.userId);
      const res = await client.get(`/api/user-searches/${user.userId}`);
      expect(res.status).toBe(200);
      const list = res.json();
      expect(list.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
      expect(list[0]).toMatchObject({
        loan_type: 'development',
        project_name: 'Second',
        application_status: 'not_submitted',
      });
      expect(list[0].search_data.projectName).toBe('Second');
      expect(list[0].result_count).toBe(second.run.data.Results.length);
    });

    it("answers 403 for another user's list, 401 when signed out", async () => {
      const { client } = await h.signedIn();
      const other = await h.signedIn();
      expect((await client.get(`/api/user-searches/${other.user.userId}`)).status).toBe(403);
      expect((await h.client().get(`/api/user-searches/${other.user.userId}`)).status).toBe(401);
    });
  });

  describe('GET /api/search-result/:id', () => {
    it('answers the saved search with form_data and its results', async () => {
      const { client, user } = await h.signedIn();
      const { run, id } = await runAndSaveSearch(client, user.userId);
      const res = await client.get(`/api/search-result/${id}`);
      expect(res.status).toBe(200);
      const body = res.json();
      expect(body.id).toBe(id);
      expect(body.loan_type).toBe('development');
      expect(body.form_data.propertyLocation).toBe(DEVELOPMENT_PAYLOAD.propertyLocation);
      expect(body.form_data.purchasePrice).toBe(DEVELOPMENT_PAYLOAD.purchasePrice);
      expect(body.results).toEqual(run.data.Results);
    });

    it("answers 401 signed out, 403 for another user's search and 404 for an unknown id", async () => {
      const owner = await h.signedIn();
      const { id } = await runAndSaveSearch(owner.client, owner.user.userId);
      const intruder = await h.signedIn();
      const signedOut = await h.client().get(`/api/search-result/${id}`);
      expect(signedOut.status).toBe(401);
      const forbidden = await intruder.client.get(`/api/search-result/${id}`);
      expect(forbidden.status).toBe(403);
      expect(forbidden.json().error).toBe('Access denied');
      const missing = await owner.client.get('/api/search-result/no-such-search');
      expect(missing.status).toBe(404);
    });
  });

  describe('PUT /api/search/project-name', () => {
    it("renames the caller's search", async () => {
      const { client, user } = await h.signedIn();
      const { id } = await runAndSaveSearch(client, user.userId);
      const res = await client.request('PUT', '/api/search/project-name', {
        body: { searchId: id, loanType: 'development', projectName: '  Riverside Mews phase 2 ' },
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: 'Project name updated successfully' });
      const stored = await savedSearchModel(h.mongo).findById(id).lean();
      expect(stored?.project_name).toBe('Riverside Mews phase 2');
      expect(stored?.search_data.projectName).toBe('Riverside Mews phase 2');
    });

    it("refuses to rename another user's search with 403 and leaves it unchanged", async () => {
      const owner = await h.signedIn();
      const { id } = await runAndSaveSearch(owner.client, owner.user.userId);
      const intruder = await h.signedIn();
      const res = await intruder.client.request('PUT', '/api/search/project-name', {
        body: { searchId: id, loanType: 'development', projectName: 'Mine now' },
      });
      expect(res.status).toBe(403);
      expect((await savedSearchModel(h.mongo).findById(id).lean())?.project_name).toBe(
        DEVELOPMENT_PAYLOAD.projectName,
      );
    });

    it('refuses an empty name with 400, and answers 404 for an unknown search or the wrong loan type', async () => {
      const { client, user } = await h.signedIn();
      const { id } = await runAndSaveSearch(client, user.userId);
      const empty = await client.request('PUT', '/api/search/project-name', {
        body: { searchId: id, loanType: 'development', projectName: '   ' },
      });
      expect(empty.status).toBe(400);
      expect(empty.json()).toMatchObject({ success: false, error: 'Project name cannot be empty' });
      const unknown = await client.request('PUT', '/api/search/project-name', {
        body: { searchId: 'nope', loanType: 'development', projectName: 'X' },
      });
      expect(unknown.status).toBe(404);
      const wrongType = await client.request('PUT', '/api/search/project-name', {
        body: { searchId: id, loanType: 'bridging', projectName: 'X' },
      });
      expect(wrongType.status).toBe(404);
      expect((await savedSearchModel(h.mongo).findById(id).lean())?.project_name).toBe(
        DEVELOPMENT_PAYLOAD.projectName,
      );
    });

    it('answers 401 when signed out', async () => {
      const res = await h.client().request('PUT', '/api/search/project-name', {
        body: { searchId: 'x', loanType: 'development', projectName: 'X' },
      });
      expect(res.status).toBe(401);
    });
  });
});
