import { Bell } from 'lucide-react';
import { IconCardTitle } from '@/components/icon-card-title';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { usePermissions } from '@/lib/session-api';
import { SETTING_LABELS } from '../settings-text';
import { SettingSwitchRow } from './setting-switch-row';
import { useSettingSwitches } from './use-setting-switch';

/** Settings → Notifications: the channels notifications may use, and the live connection; read only but for admins. */
export function NotificationSettingsCard() {
  const { switchProps } = useSettingSwitches();
  const { can } = usePermissions();
  const readOnly = !can('settings.manage');

  return (
    <Card data-testid="notification-settings">
      <CardHeader>
        <IconCardTitle icon={Bell}>Notifications</IconCardTitle>
        <CardDescription>Which channels Clearbase may use. Templates and recipients are on the Notifications screen.</CardDescription>
        {readOnly ? <ReadOnlyNote className="mt-2">Only an admin can turn these on or off.</ReadOnlyNote> : null}
      </CardHeader>
      <CardContent className="flex flex-col divide-y">
        <SettingSwitchRow
          id="emailNotifications"
          label={SETTING_LABELS.emailNotifications}
          description="Send e-mail notifications (for example when a document arrives or is rejected)."
          readOnly={readOnly}
          {...switchProps('emailNotifications')}
        />
        <SettingSwitchRow
          id="slackNotifications"
          label={SETTING_LABELS.slackNotifications}
          description="Post notifications to the league’s Slack channel through its incoming webhook."
          readOnly={readOnly}
          {...switchProps('slackNotifications')}
        />
        <SettingSwitchRow
          id="teamsNotifications"
          label={SETTING_LABELS.teamsNotifications}
          description="Post notifications to a Microsoft Teams channel through its incoming webhook."
          readOnly={readOnly}
          {...switchProps('teamsNotifications')}
        />
        <SettingSwitchRow
          id="realtimeUpdates"
          label={SETTING_LABELS.realtimeUpdates}
          description="Screens update the moment a document arrives. Off: the live connection is closed and screens refresh on their own timers (every 30 to 60 seconds)."
          readOnly={readOnly}
          {...switchProps('realtimeUpdates')}
        />
      </CardContent>
    </Card>
  );
}
