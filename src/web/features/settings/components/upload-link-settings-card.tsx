import { Link2 } from 'lucide-react';
import { UPLOAD_LINK_DAYS } from '../../../../contract';
import { IconCardTitle } from '@/components/icon-card-title';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { usePermissions } from '@/lib/session-api';
import { useSystemSettings } from '@/lib/system-settings-query';
import { parseUploadLinkDays, UPLOAD_LINK_DAYS_HINT } from '../settings-text';
import { WholeNumberSettingForm } from './whole-number-setting-form';

/** Settings → Notifications: how long a family's personal upload link works; read only but for admins. */
export function UploadLinkSettingsCard() {
  const { can } = usePermissions();
  const settings = useSystemSettings();
  const days = settings.data?.uploadLinkDays;

  return (
    <Card data-testid="upload-link-settings">
      <CardHeader>
        <IconCardTitle icon={Link2}>Family upload links</IconCardTitle>
        <CardDescription>
          A personal link lets a family send a player’s missing or not accepted documents from a phone, without signing in. Staff copy or e-mail it
          from the player.
        </CardDescription>
        {can('settings.manage') ? null : <ReadOnlyNote className="mt-2">Only an admin can change this.</ReadOnlyNote>}
      </CardHeader>
      <CardContent>
        {can('settings.manage') ? (
          <WholeNumberSettingForm
            setting="uploadLinkDays"
            id="upload-link-days"
            label="Upload links work for (days)"
            hint={UPLOAD_LINK_DAYS_HINT}
            min={UPLOAD_LINK_DAYS.min}
            max={UPLOAD_LINK_DAYS.max}
            parse={parseUploadLinkDays}
            errorName="Upload link days"
            testId="upload-link-days-form"
          />
        ) : (
          <p className="text-sm" data-testid="fact-uploadLinkDays">
            Upload links work for <span className="font-medium">{days === undefined ? '…' : `${days} ${days === 1 ? 'day' : 'days'}`}</span>.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
