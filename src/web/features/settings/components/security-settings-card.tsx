import { ShieldCheck } from 'lucide-react';
import { IconCardTitle } from '@/components/icon-card-title';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useInstallation } from '@/lib/system-settings-query';
import { scanningNote, SETTING_LABELS } from '../settings-text';
import { SessionTimeoutForm } from './session-timeout-form';
import { SettingSwitchRow } from './setting-switch-row';
import { useSettingSwitches } from './use-setting-switch';

/** Settings → Security: scanning, the always-on protections, and the session timeout. */
export function SecuritySettingsCard() {
  const { settings, switchProps } = useSettingSwitches();
  const installation = useInstallation();
  const scanning = switchProps('antivirusScanning');

  return (
    <Card data-testid="security-settings">
      <CardHeader>
        <IconCardTitle icon={ShieldCheck}>Security</IconCardTitle>
        <CardDescription>How files and sessions are protected.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col divide-y">
        <SettingSwitchRow
          id="antivirusScanning"
          label={SETTING_LABELS.antivirusScanning}
          description={scanningNote(installation.data?.antivirus, settings.data?.antivirusScanning ?? true)}
          {...scanning}
        />
        <SettingSwitchRow
          id="fileEncryption"
          label="File encryption"
          description="Every file is encrypted with its own AES-256 key before it reaches storage."
          checked
          locked
        />
        <SettingSwitchRow
          id="auditLogging"
          label="Audit logging"
          description="Sign-ins, reviews, settings changes and every step of the pipeline are recorded."
          checked
          locked
        />
        <SessionTimeoutForm />
      </CardContent>
    </Card>
  );
}
