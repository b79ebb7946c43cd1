import { buildSnapshot } from '../src/domain/snapshot';
import { OFFER } from './fixtures';

const borrower = { name: 'Alex Investor', email: 'alex@example.co.uk' };
const snapshotOf = (loanType: 'commercial' | 'bridging', searchData: Record<string, unknown>) =>
  buildSnapshot(loanType, { ...OFFER, LoanType: loanType }, searchData, borrower, false);

// The online DIP page's 'Owner occupied' showed '—' where the search knows.
describe('owner occupied, as the search knows it', () => {
  it('takes the commercial answer, also as a form sends it, and the search’s default when unanswered', () => {
    expect(snapshotOf('commercial', { isOwnerOccupied: true }).property.ownerOccupied).toBe(true);
    expect(snapshotOf('commercial', { isOwnerOccupied: 'true' }).property.ownerOccupied).toBe(true);
    expect(snapshotOf('commercial', { isOwnerOccupied: 'false' }).property.ownerOccupied).toBe(false);
    expect(snapshotOf('commercial', {}).property.ownerOccupied).toBe(false);
  });

  it('leaves it unknown where the search does not ask', () => {
    expect(snapshotOf('bridging', {}).property.ownerOccupied).toBeNull();
  });
});
