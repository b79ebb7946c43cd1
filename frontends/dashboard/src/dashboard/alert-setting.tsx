// The re-pricing alert setting on the dashboard: read with getAlertSettings, saved at once with
// updateAlertSettings when the box is ticked or cleared, and a message saying whether it was saved.
import { Button, Checkbox, isVerificationRequired, requestApi } from '@lsp/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ALERT_SETTING_LABEL, type AlertSettingMessage, alertSettingMessage } from './alert-setting-model';

export const alertSettingsKey = ['/api/alerts/settings'] as const;

export function AlertSetting() {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<AlertSettingMessage | null>(null);
  // The choice being saved, shown at once (the mutation's own state arrives a tick later).
  const [saving, setSaving] = useState<boolean | null>(null);
  const settings = useQuery({
    queryKey: alertSettingsKey,
    queryFn: ({ signal }) => requestApi('getAlertSettings', {}, { signal }),
    staleTime: 0,
  });
  const save = useMutation({
    mutationFn: (repricingAlerts: boolean) =>
      requestApi('updateAlertSettings', { body: { repricingAlerts } }),
    onMutate: () => setMessage(null),
    onSuccess: (saved) => {
      queryClient.setQueryData(alertSettingsKey, saved);
      setMessage(alertSettingMessage('saved', saved.repricingAlerts));
    },
    onError: (_error, wanted) => setMessage(alertSettingMessage('failed', wanted)),
    onSettled: () => setSaving(null),
  });

  // Not verified yet: the banner above the page says what to do; the setting waits until then.
  if (settings.isError && isVerificationRequired(settings.error)) return null;
  if (settings.isError)
    return (
      <div className="dash-alert-setting" role="alert">
        <p className="dash-alert-setting__message">Your email alert setting could not be loaded.</p>
        <Button size="sm" variant="secondary" onClick={() => void settings.refetch()}>
          Try Again
        </Button>
      </div>
    );

  // While it saves, the box shows the choice being saved; a refused save puts the last saved one back.
  const checked = saving ?? settings.data?.repricingAlerts ?? false;
  return (
    <div className="dash-alert-setting">
      <Checkbox
        label={ALERT_SETTING_LABEL}
        checked={checked}
        // Not disabled while it saves, so keyboard focus stays on it; a change then waits its turn.
        disabled={settings.isPending}
        aria-busy={saving !== null ? true : undefined}
        onChange={(event) => {
          if (saving !== null) return;
          setSaving(event.target.checked);
          save.mutate(event.target.checked);
        }}
        className="dash-alert-setting__field"
      />
      {/* Both live regions are there from the start, so a screen reader hears what is put in them. */}
      <p className="dash-alert-setting__message" role="status">
        {settings.isPending
          ? 'Loading your email alert setting...'
          : message?.tone === 'success'
            ? message.text
            : ''}
      </p>
      <p className="dash-alert-setting__message dash-alert-setting__message--error" role="alert">
        {message?.tone === 'error' ? message.text : ''}
      </p>
    </div>
  );
}
