import { forgedOffer, useHarness } from '@lsp/testing';
import { searchPayloadSchemas } from '@lsp/contracts';
import { savedSearchModel } from '../src/data/models/saved-searches';
import {
  SAVE_WITHOUT_RUN,
  SEARCH_RUN_NOT_FOUND,
  SEARCH_RUN_OF_OTHER_USER,
} from '../src/use-cases/saved-searches';
import {
  BRIDGING_PAYLOAD,
  COMMERCIAL_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  envelopeOf,
  runAndSaveSearch,
  startSearchHarness,
} from './search-harness';

const FORGED_NAME = 'Forged Bank PLC';

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('saved searches through the gateway', () => {
  const h = useHarness(startSearchHarness);

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
        // The form as the run was sized (numbers parsed, defaults and derived costs filled in).
        searchData: expect.objectContaining(
          JSON.parse(JSON.stringify(searchPayloadSchemas.development.parse(DEVELOPMENT_PAYLOAD))),
        ),
        savedAt: expect.any(String),
        panelVersion: run.data.Summary.panelVersion,
      });
    });

    it("saves the server's own run: every field of every posted offer and of the form edited, none of it kept", async () => {
      const { client, user } = await h.signedIn();
      const run = (
        await client.post('/api/development', { ...DEVELOPMENT_PAYLOAD, userId: user.userId })
      ).json();
      const forged = {
        ...run,
        message: 'Found 1 guaranteed offer',
        data: {
          ...run.data,
          Results: [
            forgedOffer(run.data.Results[0]),
            ...run.data.Results.slice(1).map(forgedOffer),
            { ...forgedOffer(run.data.Results[0]), ProductId: 'invented-product' },
          ],
          Summary: { ...run.data.Summary, panelVersion: 'forged-panel' },
        },
      };
      const saved = await client.post('/api/search', {
        userId: user.userId,
        loanType: 'development',
        searchData: { ...DEVELOPMENT_PAYLOAD, projectName: FORGED_NAME, purchasePrice: 1, gdv: 99_000_000 },
        apiResponse: forged,
      });
      expect(saved.status).toBe(201);
      const id = saved.json().search.id as string;

      const [event] = (await h.outboxEntries('search.saved')).map(envelopeOf).filter((e) => e.subject === id);
      const listed = (await client.get(`/api/user-searches/${user.userId}`)).json();
      const read = (await client.get(`/api/search-result/${id}`)).json();
      const stored = await savedSearchModel(h.mongo).findById(id).lean();
      for (const seen of [event.data, listed, read, stored]) {
        expect(JSON.stringify(seen)).not.toMatch(
          /Forged|Guaranteed|guaranteed|invented-product|forged-panel/,
        );
      }
      expect(event.data.offers).toEqual(run.data.Results);
      expect(read.results).toEqual(run.data.Results);
      expect(listed[0].api_response.data.Results).toEqual(run.data.Results);
      expect(read.api_response.data.SearchRunId).toBe(run.data.SearchRunId);
      expect(read.form_data).toMatchObject({
        projectName: DEVELOPMENT_PAYLOAD.projectName,
        purchasePrice: 1_200_000,
        gdv: 3_200_000,
      });
      expect(listed[0].project_name).toBe(DEVELOPMENT_PAYLOAD.projectName);
    });

    it("refuses a response naming no run (400), an unknown run (404) and another user's run (403), storing nothing", async () => {
      const owner = await h.signedIn();
      const { run } = await runAndSaveSearch(owner.client, owner.user.userId);
      const { client, user } = await h.signedIn();
      const before = await savedCount();
      const saveWith = (apiResponse: unknown, loanType = 'development') =>
        client.post('/api/search', {
          userId: user.userId,
          loanType,
          searchData: DEVELOPMENT_PAYLOAD,
          apiResponse,
        });
      const noRun = await saveWith({ success: true, data: { Results: run.data.Results } });
      expect(noRun.status).toBe(400);
      expect(noRun.json().message).toBe(SAVE_WITHOUT_RUN);
      const unknownRun = await saveWith({ ...run, data: { ...run.data, SearchRunId: 'no-such-run' } });
      expect(unknownRun.status).toBe(404);
      expect(unknownRun.json().message).toBe(SEARCH_RUN_NOT_FOUND);
      const wrongType = await saveWith(run, 'bridging');
      expect(wrongType.status).toBe(404);
      const othersRun = await saveWith(run);
      expect(othersRun.status).toBe(403);
      expect(othersRun.json().message).toBe(SEARCH_RUN_OF_OTHER_USER);
      expect(await savedCount()).toBe(before);
    });

    it('saves an anonymous run for whoever ran it once signed in, and saving a run twice keeps one search', async () => {
      const visitor = h.client();
      const run = (await visitor.post('/api/bridging', BRIDGING_PAYLOAD)).json();
      expect(run.data.Results.length).toBeGreaterThan(0);
      const { client, user } = await h.signedIn();
      const body = {
        userId: user.userId,
        loanType: 'bridging',
        searchData: BRIDGING_PAYLOAD,
        apiResponse: run,
      };
      const first = await client.post('/api/search', body);
      const again = await client.post('/api/search', body);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.json().search.id).toBe(first.json().search.id);
      const listed = (await client.get(`/api/user-searches/${user.userId}`)).json();
      expect(listed).toHaveLength(1);
      expect(listed[0].api_response.data.Results).toEqual(run.data.Results);
    });

    it.each([
      ['development', DEVELOPMENT_PAYLOAD],
      ['bridging', BRIDGING_PAYLOAD],
      ['commercial', COMMERCIAL_PAYLOAD],
    ] as const)('keeps every offer of a %s run exactly as the run answered it', async (loanType, payload) => {
      const { client, user } = await h.signedIn();
      const { run, id } = await runAndSaveSearch(client, user.userId, payload, loanType);
      expect(run.data.Results.length).toBeGreaterThan(0);
      const read = (await client.get(`/api/search-result/${id}`)).json();
      expect(read.results).toEqual(run.data.Results);
      expect(read.api_response.data.Summary).toEqual(run.data.Summary);
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
      expect(body.form_data.purchasePrice).toBe(1_200_000);
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
