import { useLiveConnection } from '@/lib/live-connection';
import { cn } from '@/lib/utils';

const DOT_CLASS = {
  connected: 'bg-green-600 dark:bg-green-400',
  connecting: 'bg-amber-500 dark:bg-amber-400 animate-pulse',
  disconnected: 'bg-slate-400 dark:bg-slate-500',
  off: 'border border-slate-400 bg-transparent dark:border-slate-500',
} as const;

const TEXT = {
  connected: { long: 'Live updates connected', short: 'Live' },
  connecting: { long: 'Live updates disconnected', short: 'Offline' },
  disconnected: { long: 'Live updates disconnected', short: 'Offline' },
  off: { long: 'Live updates are off in Settings; screens refresh on their own timers', short: 'Live off' },
} as const;

/** A dot for the live-update connection; the words are for screen readers (and the tooltip). */
export function LiveIndicator() {
  const state = useLiveConnection();
  const text = TEXT[state].long;

  return (
    <div
      role="status"
      data-testid="live-indicator"
      data-state={state}
      title={text}
      className="flex h-9 items-center gap-2 rounded-md px-2 text-xs font-medium text-muted-foreground"
    >
      <span className={cn('size-2 shrink-0 rounded-full', DOT_CLASS[state])} aria-hidden="true" />
      <span aria-hidden="true" className="hidden lg:inline">
        {TEXT[state].short}
      </span>
      <span className="sr-only">{text}</span>
    </div>
  );
}
