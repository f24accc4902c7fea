import type { TSystemSettings } from '../../../../contract';
import { useSystemSettings } from '@/lib/system-settings-query';
import { useUpdateSettings } from '../api';

type SwitchKey = { [K in keyof TSystemSettings]: TSystemSettings[K] extends boolean ? K : never }[keyof TSystemSettings];

/** A boolean setting wired to PATCH /api/settings; while saving it shows the new position, disabled. */
export function useSettingSwitches() {
  const settings = useSystemSettings();
  const update = useUpdateSettings();
  const pending = update.isPending ? update.variables : undefined;

  const switchProps = (key: SwitchKey) => ({
    checked: pending?.[key] ?? settings.data?.[key] ?? false,
    disabled: !settings.data || update.isPending,
    onCheckedChange: (checked: boolean) => update.mutate({ [key]: checked }),
  });
  return { settings, switchProps };
}
