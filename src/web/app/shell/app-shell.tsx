import { useCallback, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useMediaQuery } from '@/lib/use-media-query';
import { APP_NAME } from '@/lib/use-document-title';
import { AppHeader } from './app-header';
import { Sidebar } from './sidebar';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

const DESKTOP_QUERY = '(min-width: 768px)';

export function AppShell({ children }: { children: ReactNode }) {
  const [pathname] = useLocation();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [collapsed, toggleCollapsed] = useSidebarCollapsed();
  // The overlay remembers the path it was opened on, so any navigation closes it without an effect.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const mobileOpen = !isDesktop && openedOn === pathname;
  const closeMobile = useCallback(() => setOpenedOn(null), []);

  return (
    <div className="flex min-h-svh">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to main content
      </a>
      <Sidebar collapsed={collapsed} mobileOpen={mobileOpen} isDesktop={isDesktop} onMobileClose={closeMobile} />
      <div className="flex min-w-0 flex-1 flex-col">
        <AppHeader
          collapsed={collapsed}
          mobileOpen={mobileOpen}
          onToggleCollapsed={toggleCollapsed}
          onMobileOpen={() => setOpenedOn(pathname)}
        />
        <main id="main-content" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
          <div className="mx-auto w-full max-w-7xl">{children}</div>
        </main>
        <footer className="border-t px-4 py-4 text-xs text-muted-foreground sm:px-6 lg:px-8">
          <div className="mx-auto flex w-full max-w-7xl flex-wrap items-center justify-between gap-2">
            <span>
              © {new Date().getFullYear()} {APP_NAME}
            </span>
            <span>Registration document tracking for league staff</span>
          </div>
        </footer>
      </div>
    </div>
  );
}
