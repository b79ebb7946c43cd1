/** Business constants and limits of the product, shared by browser and server. */

export const COMPARE_LIMIT = 3;
export const SEARCH_HISTORY_LIMIT = 10;
export const PENDING_RESULTS_VALIDITY_MS = 60 * 60 * 1000;
export const BACK_TO_TOP_THRESHOLD = 0.5;

export const OVERLAY_STAGES = 3;
export const OVERLAY_STAGE_MS = 2200;
export const OVERLAY_COMPLETION_DELAY_MS = 800;
export const OVERLAY_STAGE_MESSAGES = [
  'searching 50+ specialist UK lenders',
  'comparing interest rates and loan structures',
  'matching to your project for best terms',
] as const;
export const LENDER_COUNT_CLAIM = '50+';

export const CONTINGENCY_DEFAULT_PERCENT = 5;
export const CONTINGENCY_MIN_PERCENT = 0;
export const CONTINGENCY_MAX_PERCENT = 100;
/** Professional costs and fees assumed on a development, as a fraction of build cost. */
export const PROFESSIONAL_FEES_FRACTION = 0.1;
/** Required money and term fields must be at least this. */
export const MIN_REQUIRED_AMOUNT = 1;

/**
 * Upper bounds the spec leaves open. £1bn is far above any specialist UK property loan (the largest
 * panel products stop at £25m-£50m) yet keeps arithmetic well inside double precision.
 */
export const MAX_MONEY = 1_000_000_000;
export const MAX_TERM_MONTHS = 600;
export const MAX_MORTGAGE_TERM_YEARS = 50;
export const MAX_UNITS = 10_000;

// Password and register-name minimums live with the identity contracts (identity/http.ts).
export const LEAD_NAME_MIN_LENGTH = 2;

export const FILTER_INTEREST_MAX_PERCENT = 30;
export const FILTER_INTEREST_STEP_PERCENT = 0.1;
export const FILTER_MONEY_STEP = 1000;

export const DEFAULT_DEVELOPMENT_BUILD_TERM_MONTHS = 12;
export const DEFAULT_DEVELOPMENT_LOAN_TERM_MONTHS = 18;
export const DEFAULT_BRIDGING_LOAN_TERM_MONTHS = 12;
export const DEFAULT_COMMERCIAL_MORTGAGE_TERM_YEARS = 25;
/** The generic search form data carries 20 years; the commercial form itself starts at 25. */
export const GENERIC_MORTGAGE_TERM_YEARS = 20;

/** Interest display clamp, annual fractions (0.1% to 50% a year). */
export const INTEREST_DISPLAY_MIN_ANNUAL = 0.001;
export const INTEREST_DISPLAY_MAX_ANNUAL = 0.5;
/** TMC estimate term when the offer has none. */
export const DEFAULT_TMC_TERM_MONTHS = 12;
/** Commercial lifetime cost horizon in years. */
export const COMMERCIAL_LIFETIME_YEARS = 20;
/** Profit above this is shown green in the breakdown. */
export const PROFIT_HIGHLIGHT_THRESHOLD = 400_000;

export const LENDABILITY_SCORE_MAX = 100;
export const LENDABILITY_TIPS_BELOW = 70;
export const LENDABILITY_GREEN_FROM = 70;
export const LENDABILITY_YELLOW_FROM = 50;

export const TOAST_DURATION_SHORT_MS = 3000;
export const TOAST_DURATION_LONG_MS = 4000;
export const TOAST_LIMIT = 1;
export const DASHBOARD_QUERY_CACHE_MS = 5 * 60 * 1000;
export const ACCOUNT_CREATED_REDIRECT_MS = 2000;
export const POST_LOGIN_PENDING_CHECK_MS = 1000;
export const THANK_YOU_CONTACT_HOURS = 24;

export const STORAGE_KEYS = {
  userSession: 'userSession',
  currentUser: 'currentUser',
  pendingLoanResults: 'pendingLoanResults',
  leadInfoCaptured: 'leadInfoCaptured',
  pendingApplication: 'pendingApplication',
  selectedLoan: 'selectedLoan',
  searchFormData: 'searchFormData',
  pendingDipSlug: 'pendingDipSlug',
  postAuthRedirect: 'postAuthRedirect',
  signupReferralToken: 'signupReferralToken',
} as const;
export const SEARCH_HISTORY_KEY_PREFIX = 'loan-search-history-';
export const searchHistoryKey = (searchType: string) => `${SEARCH_HISTORY_KEY_PREFIX}${searchType}`;
export const LEGACY_STORAGE_KEYS = [
  'userSession',
  'authToken',
  'user',
  'pendingLoanResults',
  'pendingDipSlug',
] as const;
export const USER_SESSION_CHANGED_EVENT = 'userSessionChanged';

/** The role that opens the operations console (granted at sign-in from OPS_EMAILS). */
export const OPS_ROLE = 'ops';
