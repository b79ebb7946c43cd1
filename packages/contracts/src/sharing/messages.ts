// Free of zod, so a page that only shows these words does not download the schemas with them.
/** The spec's wording for the sharing calls; ours where the spec names no words. */
export const SHARING_MESSAGES = {
  linkMissingParameters: 'Invalid share link - missing parameters',
  authRequired: 'Authentication Required',
  accessDenied: "You don't have access to this DIP. Please contact the person who shared it with you.",
  wrongAccount:
    'This DIP was shared with a different email address. Sign out, then sign in with the email address it was sent to.',
  notFound: 'DIP not found or may have been removed',
  expired: 'This DIP has expired and is no longer available',
  expiredCannotShare: 'This DIP has expired and can no longer be shared',
  noEmails: 'No Email Addresses',
  invalidEmails: 'Invalid Email Format',
  ownEmailAddress:
    'You cannot share a DIP with your own email address. Enter the address of the person it is for.',
  emailUnavailable: 'Email Service Unavailable - Please use the Copy Link feature to share this DIP.',
  linkReplaced: 'This link has been replaced by a newer one. The DIP is still in your Shared with me.',
  shareNotFound: 'Share not found',
  dealNotFound: 'Deal not found',
  referralMissing: 'Missing Information: Please fill in your name and referral email address',
  referralInvalidEmail: 'Invalid Email: Please enter a valid email address',
  referrerMismatch: 'The referrer id does not match the signed-in user',
  tooManyInvitations: 'Too many invitations sent. Please wait a while and try again.',
  invitationsUnavailable: 'Invitations cannot be sent right now. Please try again in a few minutes.',
  alreadyEmailedToday:
    'Already emailed about this DIP in the last 24 hours: shared again without sending another email',
  dealWithoutRun:
    'searchRunId is required: a deal is shared from a search run (the SearchRunId of the search answer)',
  dealWithoutOffer: 'lenderId and productId are required: they name the offer of the search run to share',
  dealRunNotFound: 'That search run was not found. Please run the search again.',
  dealRunOfOtherUser: 'That search was run by another user',
  dealOfferNotInRun: 'That offer is not one of the search run’s results. Please run the search again.',
  referrerNameControlCharacters:
    'Invalid Name: Please remove control or text-direction characters from your name',
} as const;
