import { cn } from '@/lib/utils';
import { completionTone } from './status-tones';

const BAR_CLASS = {
  complete: 'bg-green-600 dark:bg-green-500',
  high: 'bg-lime-500 dark:bg-lime-400',
  medium: 'bg-yellow-500 dark:bg-yellow-400',
  low: 'bg-orange-500 dark:bg-orange-400',
  critical: 'bg-red-600 dark:bg-red-500',
} as const;

/** A completion percentage as a bar in the completion colours (completionTone), with its number for screen readers and eyes. */
export function CompletionBar({ percent, label, className }: { percent: number; label?: string; className?: string }) {
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div className={cn('flex min-w-24 items-center gap-2', className)}>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-label={label ?? 'Completion'}
        className="h-2 flex-1 overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full', BAR_CLASS[completionTone(value)])} style={{ width: `${value}%` }} />
      </div>
      <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{value}%</span>
    </div>
  );
}
