import { UserRound } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { principalText } from '@/lib/access-text';
import { usePermissions } from '@/lib/session-api';
import { IdentityAvatar } from './user-identity';

/** The header's user menu: who is signed in, and My account. */
export function UserMenu() {
  const { principal } = usePermissions();
  const [, navigate] = useLocation();
  const { name, detail } = principalText(principal);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Account: ${name}`} data-testid="user-menu-trigger">
          <IdentityAvatar name={name} className="size-7" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate">{name}</span>
          {principal?.email ? <span className="truncate text-xs font-normal text-muted-foreground">{principal.email}</span> : null}
          <span className="truncate text-xs font-normal text-muted-foreground">{detail}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate('/account')}>
          <UserRound aria-hidden="true" />
          My account
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
