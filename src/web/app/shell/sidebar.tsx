import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { usePermissions } from '@/lib/session-api';
import { cn } from '@/lib/utils';
import { BrandMark } from '../auth/brand-mark';
import { isNavItemActive, visibleNavItems, type NavItem } from './nav-items';
import { UserIdentity } from './user-identity';

export const SIDEBAR_ID = 'app-sidebar';
/** The header button that opens the overlay; focus returns to it when the overlay closes. */
export const OPEN_NAVIGATION_BUTTON_ID = 'open-navigation-button';

interface SidebarProps {
  /** Desktop only: icons without labels. */
  collapsed: boolean;
  /** Small screens only: shown as an overlay. */
  mobileOpen: boolean;
  /** Desktop layout is active, so `collapsed` applies and labels move into tooltips. */
  isDesktop: boolean;
  onMobileClose: () => void;
}

function NavEntry({ item, active, iconOnly }: { item: NavItem; active: boolean; iconOnly: boolean }) {
  const Icon = item.icon;
  const link = (
    <Link
      href={item.href}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex h-9 items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        active
          ? 'bg-sidebar-accent text-sidebar-accent-foreground'
          : 'text-sidebar-foreground hover:bg-sidebar-accent/60 hover:text-sidebar-accent-foreground',
        iconOnly && 'justify-center px-0',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span className={cn('truncate', iconOnly && 'sr-only')}>{item.label}</span>
    </Link>
  );
  if (!iconOnly) return link;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{link}</TooltipTrigger>
      <TooltipContent side="right">{item.label}</TooltipContent>
    </Tooltip>
  );
}

export function Sidebar({ collapsed, mobileOpen, isDesktop, onMobileClose }: SidebarProps) {
  const [pathname] = useLocation();
  const { can } = usePermissions();
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  const iconOnly = collapsed && isDesktop;
  const overlayOpen = mobileOpen && !isDesktop;

  useEffect(() => {
    if (!overlayOpen) return;
    closeButtonRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onMobileClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      // Focus would otherwise be left on a link that is now hidden.
      if (document.getElementById(SIDEBAR_ID)?.contains(document.activeElement)) {
        document.getElementById(OPEN_NAVIGATION_BUTTON_ID)?.focus();
      }
    };
  }, [overlayOpen, onMobileClose]);

  return (
    <>
      {overlayOpen ? (
        <div aria-hidden="true" className="fixed inset-0 z-40 bg-black/50 md:hidden" onClick={onMobileClose} />
      ) : null}
      <aside
        id={SIDEBAR_ID}
        data-testid="sidebar"
        data-state={isDesktop ? (collapsed ? 'collapsed' : 'expanded') : mobileOpen ? 'open' : 'closed'}
        className={cn(
          'fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r border-sidebar-border bg-sidebar text-sidebar-foreground transition-[transform,width,visibility] duration-200',
          'md:sticky md:top-0 md:z-30 md:h-svh md:max-w-none md:shrink-0 md:translate-x-0',
          mobileOpen ? 'translate-x-0 shadow-xl md:shadow-none' : 'invisible -translate-x-full md:visible',
          collapsed ? 'md:w-16' : 'md:w-64',
        )}
      >
        <div className={cn('flex h-14 shrink-0 items-center gap-2 border-b border-sidebar-border px-4', iconOnly && 'justify-center px-2')}>
          <Link
            href="/"
            aria-label="Clearbase home"
            className="flex min-w-0 items-center rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <BrandMark iconOnly={iconOnly} className="[&>span:first-child]:size-8" />
          </Link>
          <Button
            ref={closeButtonRef}
            variant="ghost"
            size="icon"
            className="ml-auto md:hidden"
            aria-label="Close navigation"
            onClick={onMobileClose}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
          <ul className="flex flex-col gap-1">
            {visibleNavItems(can).map((item) => (
              <li key={item.href}>
                <NavEntry item={item} active={isNavItemActive(pathname, item.href)} iconOnly={iconOnly} />
              </li>
            ))}
          </ul>
        </nav>
        <div className={cn('shrink-0 border-t border-sidebar-border p-4', iconOnly && 'px-2')}>
          <UserIdentity collapsed={iconOnly} />
        </div>
      </aside>
    </>
  );
}
