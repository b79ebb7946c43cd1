// The advisers' contact: the saved-search page's 'Speak to an Advisor' card and the breakdown modal's
// Request Callback both give it (a contact toast carrying a sample phone and email;
// what Request Callback does beyond that is not defined). Sample values until the business supplies real ones.
export const ADVISOR_PHONE = '0800 123 4567';
export const ADVISOR_EMAIL = 'advisors@loansearch.example';

/** Request Callback's message: how to get a call back about this lender's offer. */
export function callbackMessage(lender: string): string {
  return `Call a finance specialist on ${ADVISOR_PHONE}, or email ${ADVISOR_EMAIL} with a good time to call and quote ${lender}; we call back within 24 hours.`;
}
