/**
 * The lender panel changes under a user's saved search and live DIP: an operator activates a cheaper
 * panel, search re-prices the saved search (search.repriced), dip marks the DIP's product as changed
 * (dip.product.changed) while its terms stay as issued, and the owner sees both.
 */
import { SEARCH_PAYLOADS, type SignedInUser, sameOrigin } from '../../scripts/lib/journeys';
import { type Stack, eventually } from './event-chain';
import { activateCheaperPanel } from './producers';

/** Returns the first step that answered wrong, or null. */
export async function panelChangeRound(stack: Stack, owner: SignedInUser): Promise<string | null> {
  const headers = sameOrigin(stack.url);
  const searchData = { ...SEARCH_PAYLOADS.bridging, projectName: 'Panel change' };
  const run = await owner.client.post('/api/bridging', searchData, { headers });
  if (run.status !== 200) return `search: ${run.status}`;
  const saved = await owner.client.post(
    '/api/search',
    { userId: owner.userId, loanType: 'bridging', searchData, apiResponse: run.json() },
    { headers },
  );
  if (saved.status !== 201) return `save search: ${saved.status}`;
  const searchId = saved.json().search.id as string;
  const created = await owner.client.post(
    `/api/online-dip/create/${searchId}/0`,
    { validHours: 48 },
    { headers },
  );
  if (created.status !== 201) return `create DIP: ${created.status} ${created.text.slice(0, 120)}`;
  const { dipId } = created.json() as { dipId: string };
  const issued = (await owner.client.get(`/api/online-dip/${dipId}`)).json().dip.loan;

  const version = await activateCheaperPanel(stack);

  let step = 'the saved search to show the re-pricing';
  try {
    await eventually(async () => {
      const searches = (await owner.client.get(`/api/user-searches/${owner.userId}`)).json() as Array<{
        id: string;
        repricing: { panelVersion?: string } | null;
      }>;
      return searches.find((s) => s.id === searchId)?.repricing?.panelVersion === version;
    }, step);
    step = 'the DIP to say its product changed';
    await eventually(async () => {
      const view = await owner.client.get(`/api/online-dip/${dipId}`);
      return view.status === 200 && view.json().dip.productChange?.panelVersion === version;
    }, step);
  } catch {
    return `timed out waiting for ${step}`;
  }
  const after = (await owner.client.get(`/api/online-dip/${dipId}`)).json().dip;
  if (after.productChange.change !== 'repriced')
    return `the DIP's change reads ${after.productChange.change}`;
  if (JSON.stringify(after.loan) !== JSON.stringify(issued)) return "the DIP's terms moved with the panel";
  return null;
}
