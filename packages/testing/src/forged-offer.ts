/**
 * An offer as a borrower might edit it in a saved answer, every field changed: names, ids, figures,
 * terms and reasons (the loan type and interest treatment kept, so it still reads as an offer). What
 * a service shows of a search's offers must never be what such an edit says.
 */
export function forgedOffer(offer: Record<string, unknown>): Record<string, unknown> {
  const edited: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(offer)) {
    if (typeof value === 'number')
      edited[field] = field === 'LoanTerm' ? 60 : field.includes('Fee') ? 0 : value + 1;
    else if (Array.isArray(value)) edited[field] = ['Guaranteed approval'];
    else if (field === 'LoanType' || field === 'InterestTreatment') edited[field] = value;
    else edited[field] = field === 'ProductName' ? 'Guaranteed Approval Bridge' : 'Forged Bank PLC';
  }
  return edited;
}
