import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

interface LabelledSelectProps<T extends string> {
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

/** A label over a select of a fixed list of choices. */
export function LabelledSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
  id,
  className = 'flex min-w-0 flex-col gap-2',
}: LabelledSelectProps<T>) {
  const ownId = useId();
  const selectId = id ?? ownId;
  const isOption = (next: string): next is T => (options as readonly string[]).includes(next);
  return (
    <div className={className}>
      <Label htmlFor={selectId}>{label}</Label>
      <Select value={value} onValueChange={(next) => isOption(next) && onChange(next)}>
        <SelectTrigger id={selectId}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {labels[option]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
