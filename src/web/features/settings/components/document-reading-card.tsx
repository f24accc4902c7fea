import { ScanText } from 'lucide-react';
import { IconCardTitle } from '@/components/icon-card-title';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { usePermissions } from '@/lib/session-api';
import { SETTING_LABELS } from '../settings-text';
import { SettingSwitchRow } from './setting-switch-row';
import { useSettingSwitches } from './use-setting-switch';

/** Settings → System: whether stored documents are read on this server (their text, or OCR of a photo). */
export function DocumentReadingCard() {
  const { switchProps } = useSettingSwitches();
  const { can } = usePermissions();
  const readOnly = !can('settings.manage');

  return (
    <Card data-testid="document-reading-settings">
      <CardHeader>
        <IconCardTitle icon={ScanText}>Reading documents</IconCardTitle>
        <CardDescription>What the Review screen shows beside each document: its type, the name and dates it prints.</CardDescription>
        {readOnly ? <ReadOnlyNote className="mt-2">Only an admin can turn this on or off.</ReadOnlyNote> : null}
      </CardHeader>
      <CardContent className="flex flex-col divide-y">
        <SettingSwitchRow
          id="documentReading"
          label={SETTING_LABELS.documentReading}
          description="Finds the type, names and dates in each document on this server; nothing leaves it. Turn off to store documents without reading them."
          readOnly={readOnly}
          {...switchProps('documentReading')}
        />
      </CardContent>
    </Card>
  );
}
