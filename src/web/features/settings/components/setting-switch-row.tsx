import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { onOffText } from '@/components/read-only-text';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

interface SettingSwitchRowProps {
  id: string;
  label: string;
  description: ReactNode;
  checked: boolean;
  onCheckedChange?: (checked: boolean) => void;
  disabled?: boolean;
  /** Always on, shown but not changeable (file encryption, audit logging). */
  locked?: boolean;
  /** For a role that cannot change settings: the position as text ('On', 'Off'), with no switch at all. */
  readOnly?: boolean;
}

/** One switch of System Settings with its name and what it does; or, read only, its name and its position in words. */
export function SettingSwitchRow({ id, label, description, checked, onCheckedChange, disabled, locked, readOnly }: SettingSwitchRowProps) {
  const descriptionId = `${id}-description`;
  return (
    <div data-testid={`setting-${id}`} className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="flex min-w-0 flex-col gap-1.5">
        {readOnly ? (
          <p className="flex flex-wrap items-center gap-2 text-sm leading-none font-medium">
            {label}
          </p>
        ) : (
          <Label htmlFor={id} className="flex-wrap">
            {label}
            {locked ? (
              <Badge variant="secondary">
                <Lock aria-hidden="true" />
                Always on
              </Badge>
            ) : null}
          </Label>
        )}
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      {readOnly ? (
        <Badge variant={checked ? 'success' : 'secondary'} data-testid={`setting-${id}-value`} className="mt-0.5 min-w-10">
          <span className="sr-only">{label}: </span>
          {locked ? 'Always on' : onOffText(checked)}
        </Badge>
      ) : (
        <Switch
          id={id}
          checked={checked}
          onCheckedChange={onCheckedChange}
          disabled={disabled || locked}
          aria-describedby={descriptionId}
          className="mt-0.5"
        />
      )}
    </div>
  );
}
