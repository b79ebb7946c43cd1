import { ALERT_SETTING_LABEL, alertSettingMessage } from '../src/dashboard/alert-setting-model';

describe('the re-pricing alert setting, in words', () => {
  it('is labelled as the borrower reads it', () => {
    expect(ALERT_SETTING_LABEL).toBe('Email me when a lender change improves one of my saved searches');
  });

  it('says what a saved setting now does', () => {
    expect(alertSettingMessage('saved', true)).toEqual({
      tone: 'success',
      text: 'Saved. We will email you when a lender change improves one of your saved searches.',
    });
    expect(alertSettingMessage('saved', false)).toEqual({
      tone: 'success',
      text: 'Saved. We will not email you about lender changes.',
    });
  });

  it('says a failed save kept the setting as it was', () => {
    expect(alertSettingMessage('failed', false)).toEqual({
      tone: 'error',
      text: 'Your email alert setting was not saved: alerts are still on. Please try again.',
    });
    expect(alertSettingMessage('failed', true).text).toContain('alerts are still off');
  });
});
