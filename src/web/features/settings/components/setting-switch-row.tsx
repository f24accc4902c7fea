import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
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
}

/** One switch of System Settings with its name and what it does. */
export function SettingSwitchRow({ id, label, description, checked, onCheckedChange, disabled, locked }: SettingSwitchRowProps) {
  const descriptionId = `${id}-description`;
  return (
    <div data-testid={`setting-${id}`} className="flex items-start justify-between gap-4 py-4 first:pt-0 last:pb-0">
      <div className="flex min-w-0 flex-col gap-1.5">
        <Label htmlFor={id} className="flex-wrap">
          {label}
          {locked ? (
            <Badge variant="secondary">
              <Lock aria-hidden="true" />
              Always on
            </Badge>
          ) : null}
        </Label>
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled || locked}
        aria-describedby={descriptionId}
        className="mt-0.5"
      />
    </div>
  );
}
