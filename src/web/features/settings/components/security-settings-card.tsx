import { useQueryClient } from '@tanstack/react-query';
import { Lock, ShieldCheck, Users } from 'lucide-react';
import { useState } from 'react';
import { SIGN_IN_MODE_LABELS, SIGN_IN_MODES, type TSignInMode } from '../../../../contract';
import { FormError } from '@/components/form-field';
import { IconCardTitle } from '@/components/icon-card-title';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group';
import { getErrorMessage } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/query-keys';
import { usePermissions } from '@/lib/session-api';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useInstallation, useSystemSettings } from '@/lib/system-settings-query';
import { useUpdateSettings } from '../api';
import { PERSONAL_ONLY_WARNING, scanningNote, SETTING_LABELS, SIGN_IN_MODE_DESCRIPTIONS } from '../settings-text';
import { SessionTimeoutForm } from './session-timeout-form';
import { SettingSwitchRow } from './setting-switch-row';
import { useSettingSwitches } from './use-setting-switch';

const isSignInMode = (value: string): value is TSignInMode => (SIGN_IN_MODES as readonly string[]).includes(value);

/**
 * How staff sign in: three choices, saved at once; 'Personal accounts only' asks first, since it signs out
 * every shared-password session. A refusal (no admin has a password yet) is shown under the choices.
 */
function SignInModeChoice() {
  const settings = useSystemSettings();
  const update = useUpdateSettings();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // Opened by a radio button, not a trigger: focus goes back to the choices when it closes.
  const returnFocus = useReturnFocus();
  const [error, setError] = useState<string | null>(null);
  const saved = settings.data?.signInMode;
  const shown = (update.isPending ? update.variables.signInMode : undefined) ?? saved;

  const save = (signInMode: TSignInMode) => {
    setError(null);
    update.mutate(
      { signInMode },
      {
        // The gate asks for what the new mode needs; a shared-password session may have just ended.
        onSuccess: () => void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true }),
        onError: (failure) => setError(getErrorMessage(failure, 'The sign-in mode could not be changed. Please try again.')),
      },
    );
  };

  return (
    <div className="flex flex-col gap-3 pb-4" data-testid="setting-signInMode">
      <div className="flex flex-col gap-1.5">
        <span id="sign-in-mode-label" className="flex items-center gap-2 text-sm leading-none font-medium">
          <Users className="size-4 text-muted-foreground" aria-hidden="true" />
          {SETTING_LABELS.signInMode}
        </span>
        <p id="sign-in-mode-hint" className="text-sm text-muted-foreground">
          How staff sign in. Personal accounts are invited on the User Management screen.
        </p>
      </div>
      <RadioGroup
        value={shown ?? ''}
        onValueChange={(next) => {
          if (!isSignInMode(next) || next === saved) return;
          if (next === 'personal') setConfirming(true);
          else save(next);
        }}
        disabled={!settings.data || update.isPending}
        aria-labelledby="sign-in-mode-label"
        aria-describedby={error ? 'sign-in-mode-hint sign-in-mode-error' : 'sign-in-mode-hint'}
        className="gap-2"
      >
        {SIGN_IN_MODES.map((mode) => (
          <RadioCard key={mode} id={`sign-in-mode-${mode}`} value={mode} label={SIGN_IN_MODE_LABELS[mode]} description={SIGN_IN_MODE_DESCRIPTIONS[mode]} />
        ))}
      </RadioGroup>
      <FormError id="sign-in-mode-error" message={error} testId="sign-in-mode-error" />
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent data-testid="personal-only-dialog" {...returnFocus}>
          <AlertDialogHeader>
            <AlertDialogTitle>Switch to personal accounts only?</AlertDialogTitle>
            <AlertDialogDescription>{PERSONAL_ONLY_WARNING}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button
              onClick={() => {
                setConfirming(false);
                save('personal');
              }}
            >
              Switch to personal accounts
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/** For an admin: every security setting, changeable. */
function SecuritySettingsForm() {
  const { settings, switchProps } = useSettingSwitches();
  const installation = useInstallation();

  return (
    <CardContent className="flex flex-col divide-y">
      <SignInModeChoice />
      <SettingSwitchRow
        id="requireTwoFactorForAdmins"
        label={SETTING_LABELS.requireTwoFactorForAdmins}
        description="Admins with a personal account must use a code from their phone as well as their password. Those who have not set it up are asked to at their next sign-in."
        {...switchProps('requireTwoFactorForAdmins')}
      />
      <SettingSwitchRow
        id="antivirusScanning"
        label={SETTING_LABELS.antivirusScanning}
        description={scanningNote(installation.data?.antivirus, settings.data?.antivirusScanning ?? true)}
        {...switchProps('antivirusScanning')}
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
  );
}

function ReadOnlyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="grid gap-0.5 py-3 first:pt-0 last:pb-0 sm:grid-cols-[16rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** For everyone else: the same settings as facts, and who can change them. */
function SecuritySettingsFacts() {
  const settings = useSystemSettings();
  if (settings.isError) {
    return (
      <CardContent>
        <FormError message={`Unable to load the settings: ${getErrorMessage(settings.error)}`} />
      </CardContent>
    );
  }
  const data = settings.data;
  const onOff = (on: boolean | undefined) => (on === undefined ? '…' : on ? 'On' : 'Off');
  return (
    <CardContent className="flex flex-col gap-4">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Lock className="size-4 shrink-0" aria-hidden="true" />
        Only a league admin can change these.
      </p>
      <dl className="flex flex-col divide-y" data-testid="security-facts">
        <ReadOnlyRow label={SETTING_LABELS.signInMode} value={data ? SIGN_IN_MODE_LABELS[data.signInMode] : '…'} testId="fact-signInMode" />
        <ReadOnlyRow
          label={SETTING_LABELS.requireTwoFactorForAdmins}
          value={data ? (data.requireTwoFactorForAdmins ? 'Required' : 'Not required') : '…'}
          testId="fact-requireTwoFactorForAdmins"
        />
        <ReadOnlyRow label={SETTING_LABELS.antivirusScanning} value={onOff(data?.antivirusScanning)} testId="fact-antivirusScanning" />
        <ReadOnlyRow label="File encryption" value="Always on" testId="fact-fileEncryption" />
        <ReadOnlyRow label="Audit logging" value="Always on" testId="fact-auditLogging" />
        <ReadOnlyRow label={SETTING_LABELS.sessionTimeoutMinutes} value={data ? `${data.sessionTimeoutMinutes} minutes` : '…'} testId="fact-sessionTimeoutMinutes" />
      </dl>
    </CardContent>
  );
}

/** Settings → Security: how staff sign in, scanning, the always-on protections, and the session timeout. */
export function SecuritySettingsCard() {
  const { can } = usePermissions();
  const canManage = can('settings.manage');

  return (
    <Card data-testid="security-settings">
      <CardHeader>
        <IconCardTitle icon={ShieldCheck}>Security</IconCardTitle>
        <CardDescription className="flex flex-wrap items-center gap-2">
          How staff sign in, and how files and sessions are protected.
          {canManage ? null : <Badge variant="secondary">Read only</Badge>}
        </CardDescription>
      </CardHeader>
      {canManage ? <SecuritySettingsForm /> : <SecuritySettingsFacts />}
    </Card>
  );
}
