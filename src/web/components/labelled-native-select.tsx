import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

interface LabelledNativeSelectProps<T extends string> {
  label: string;
  value: T;
  /** The choices, in the order shown. */
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
  /** The select's id, which its label points at; one of its own when not given. */
  id?: string;
  className?: string;
}

/**
 * A label over the browser's own select: one tap or click picks a choice (the phone's own picker on a phone),
 * for the filters people change most. Styled as the other selects.
 */
export function LabelledNativeSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
  id,
  className = 'flex min-w-0 flex-col gap-2',
}: LabelledNativeSelectProps<T>) {
  const ownId = useId();
  const selectId = id ?? ownId;
  const isOption = (next: string): next is T => (options as readonly string[]).includes(next);
  return (
    <div className={className}>
      <Label htmlFor={selectId}>{label}</Label>
      <div className="relative">
        <select
          id={selectId}
          value={value}
          onChange={(event) => {
            const next = event.target.value;
            if (isOption(next)) onChange(next);
          }}
          className={cn(
            'h-9 w-full min-w-0 appearance-none rounded-md border border-input bg-transparent py-2 pr-8 pl-3 text-sm shadow-xs outline-none',
            'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-input/30',
            '[&>option]:bg-popover [&>option]:text-popover-foreground',
          )}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-50" aria-hidden="true" />
      </div>
    </div>
  );
}
