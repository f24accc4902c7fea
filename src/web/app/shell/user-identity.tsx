import { Link } from 'wouter';
import { principalText } from '@/lib/access-text';
import { usePermissions } from '@/lib/session-api';
import { cn } from '@/lib/utils';

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

/** The initials of whoever is signed in, in a round tile. */
export function IdentityAvatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground', className)}
    >
      {initialsOf(name)}
    </span>
  );
}

/** Who is signed in (their name and role, or the shared password), at the foot of the sidebar; it opens My Account. */
export function UserIdentity({ collapsed = false }: { collapsed?: boolean }) {
  const { principal } = usePermissions();
  const { name, detail } = principalText(principal);
  return (
    <Link
      href="/account"
      aria-label={`My account: ${name}${detail ? `, ${detail}` : ''}`}
      className={cn(
        '-m-1.5 flex min-w-0 items-center gap-3 rounded-md p-1.5 outline-none hover:bg-sidebar-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring/50',
        collapsed && 'md:justify-center',
      )}
      data-testid="user-identity"
    >
      <IdentityAvatar name={name} />
      <span className={cn('min-w-0', collapsed && 'md:sr-only')}>
        <span className="block truncate text-sm font-medium">{name}</span>
        <span className="block truncate text-xs text-muted-foreground">{detail}</span>
      </span>
    </Link>
  );
}
