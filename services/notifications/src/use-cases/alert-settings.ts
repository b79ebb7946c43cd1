import { ALERT_MESSAGES } from '@lsp/contracts';
import { badRequest } from '@lsp/service-kit';
import type { AlertStore } from '../data/alerts';
import { unsubscribeQuestionPage, unsubscribedPage } from '../alerts/unsubscribe-pages';
import { verifyUnsubscribeToken } from '../alerts/unsubscribe-token';

export interface AlertSettingsDeps {
  alerts: AlertStore;
  /** Signs the unsubscribe links' tokens (derived from the internal secret). */
  unsubscribeKey: Buffer;
}

export async function alertSettings(deps: Pick<AlertSettingsDeps, 'alerts'>, userId: string) {
  return { repricingAlerts: await deps.alerts.repricingAlertsOn(userId) };
}

export async function updateAlertSettings(
  deps: Pick<AlertSettingsDeps, 'alerts'>,
  userId: string,
  repricingAlerts: boolean,
) {
  await deps.alerts.setRepricingAlerts(userId, repricingAlerts);
  return { repricingAlerts };
}

/** The user an unsubscribe link was signed for; any other token is a bad link (400). */
function userOfLink(deps: Pick<AlertSettingsDeps, 'unsubscribeKey'>, token: string): string {
  const userId = verifyUnsubscribeToken(token, deps.unsubscribeKey);
  if (!userId) throw badRequest(ALERT_MESSAGES.badLink);
  return userId;
}

/**
 * The page an unsubscribe link opens. A visit (a mail scanner's too) changes nothing: it only shows
 * the button that posts the change.
 */
export function showUnsubscribe(
  deps: Pick<AlertSettingsDeps, 'unsubscribeKey'>,
  token: string,
  styleNonce: unknown,
): string {
  userOfLink(deps, token);
  return unsubscribeQuestionPage(token, styleNonce);
}

/** Turns the link's user's re-pricing alerts off, no sign-in needed: the signed token says who. */
export async function unsubscribe(
  deps: AlertSettingsDeps,
  token: string,
  styleNonce: unknown,
): Promise<string> {
  await deps.alerts.setRepricingAlerts(userOfLink(deps, token), false);
  return unsubscribedPage(styleNonce);
}
