// The re-pricing alert setting's words (pure: no @lsp/ui, so a unit test takes it without CSS).

export const ALERT_SETTING_LABEL = 'Email me when a lender change improves one of my saved searches';

export type AlertSaveOutcome = 'saved' | 'failed';

export interface AlertSettingMessage {
  tone: 'success' | 'error';
  text: string;
}

/** What the page says after trying to save `wanted`: the setting now, or that it was kept as it was. */
export function alertSettingMessage(outcome: AlertSaveOutcome, wanted: boolean): AlertSettingMessage {
  if (outcome === 'failed')
    return {
      tone: 'error',
      text: `Your email alert setting was not saved: alerts are still ${wanted ? 'off' : 'on'}. Please try again.`,
    };
  return {
    tone: 'success',
    text: wanted
      ? 'Saved. We will email you when a lender change improves one of your saved searches.'
      : 'Saved. We will not email you about lender changes.',
  };
}
