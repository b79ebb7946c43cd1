// One correlation id for a visitor's way in: from an anonymous search, through the lead and the new
// account, to the verification email. While a journey is open, every write the browser sends carries
// its id as `x-request-id`; the gateway keeps a well-formed one, and each service stamps it on the
// events it publishes as `correlationId`, so the operations console shows the whole chain
// (search.completed → lead.captured → identity.user.registered → the email) as one.
// Kept in sessionStorage: one tab's journey, gone when the tab closes.

const JOURNEY_KEY = 'journeyId';
/** What the gateway accepts as a request id (8-64 of A-Z a-z 0-9 . _ -). */
const WELL_FORMED = /^[A-Za-z0-9._-]{8,64}$/;

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Opens a journey (replacing any earlier one) and returns its id. */
export function startJourney(): string | null {
  const storage = store();
  if (!storage) return null;
  const id = `journey-${globalThis.crypto.randomUUID()}`;
  try {
    storage.setItem(JOURNEY_KEY, id);
    return id;
  } catch {
    return null;
  }
}

/** The open journey's id, or null. */
export function currentJourney(): string | null {
  try {
    const id = store()?.getItem(JOURNEY_KEY) ?? null;
    return id && WELL_FORMED.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Closes the journey: later requests get request ids of their own again. */
export function endJourney(): void {
  try {
    store()?.removeItem(JOURNEY_KEY);
  } catch {
    // Storage refused: nothing was stored either.
  }
}

/** The header a write carries while a journey is open. */
export function journeyHeaders(method: string): Record<string, string> {
  if (method.toUpperCase() === 'GET') return {};
  const id = currentJourney();
  return id ? { 'x-request-id': id } : {};
}
