import { cn } from '@/lib/utils';

/** The shell shows a fixed identity: behind the shared-password gate there are no per-user sign-ins. */
export const SHELL_USER_NAME = 'Admin User';

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

export function UserIdentity({ collapsed = false }: { collapsed?: boolean }) {
  return (
    <div className={cn('flex min-w-0 items-center gap-3', collapsed && 'md:justify-center')}>
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
      >
        {initialsOf(SHELL_USER_NAME)}
      </span>
      <span className={cn('min-w-0', collapsed && 'md:sr-only')}>
        <span className="block truncate text-sm font-medium">{SHELL_USER_NAME}</span>
        <span className="block truncate text-xs text-muted-foreground">League staff</span>
      </span>
    </div>
  );
}
