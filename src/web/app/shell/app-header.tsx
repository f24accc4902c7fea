import { LogOut, Menu, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useLogout } from '@/lib/session-api';
import { AppBreadcrumbs } from './app-breadcrumbs';
import { LiveIndicator } from './live-indicator';
import { OPEN_NAVIGATION_BUTTON_ID, SIDEBAR_ID } from './sidebar';
import { ThemeMenu } from './theme-menu';
import { UserMenu } from './user-menu';

interface AppHeaderProps {
  collapsed: boolean;
  mobileOpen: boolean;
  onToggleCollapsed: () => void;
  onMobileOpen: () => void;
}

export function AppHeader({ collapsed, mobileOpen, onToggleCollapsed, onMobileOpen }: AppHeaderProps) {
  const logout = useLogout();

  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/80 sm:px-4">
      <Button
        variant="ghost"
        size="icon"
        id={OPEN_NAVIGATION_BUTTON_ID}
        className="md:hidden"
        aria-label="Open navigation"
        aria-controls={SIDEBAR_ID}
        aria-expanded={mobileOpen}
        onClick={onMobileOpen}
      >
        <Menu aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="hidden md:inline-flex"
        aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
        aria-controls={SIDEBAR_ID}
        aria-expanded={!collapsed}
        onClick={onToggleCollapsed}
      >
        {collapsed ? <PanelLeftOpen aria-hidden="true" /> : <PanelLeftClose aria-hidden="true" />}
      </Button>
      <AppBreadcrumbs className="flex-1" />
      <div className="flex shrink-0 items-center gap-1">
        <LiveIndicator />
        <ThemeMenu />
        <UserMenu />
        <Button variant="ghost" className="px-2 sm:px-3" onClick={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut aria-hidden="true" />
          <span className="max-sm:sr-only">Logout</span>
        </Button>
      </div>
    </header>
  );
}
