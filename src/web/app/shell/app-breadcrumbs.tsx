import { ChevronRight, House } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { cn } from '@/lib/utils';
import { deriveBreadcrumbs } from './breadcrumbs';

export function AppBreadcrumbs({ className }: { className?: string }) {
  const [pathname] = useLocation();
  const crumbs = deriveBreadcrumbs(pathname);
  const lastIndex = crumbs.length - 1;

  return (
    <nav aria-label="Breadcrumb" data-testid="breadcrumbs" className={cn('min-w-0', className)}>
      <ol className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
        {crumbs.map((crumb, index) => {
          const isHome = index === 0;
          const isCurrent = index === lastIndex;
          return (
            <li key={crumb.href} className={cn('flex min-w-0 items-center gap-1.5', isHome ? 'shrink-0' : 'shrink')}>
              {isHome ? null : <ChevronRight className="size-3.5 shrink-0" aria-hidden="true" />}
              {isHome ? (
                <Link
                  href={crumb.href}
                  aria-current={isCurrent ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-1.5 rounded-sm transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
                    isCurrent && 'font-medium text-foreground',
                  )}
                  >
                    <House className="size-4 shrink-0" aria-hidden="true" />
                    {/* On narrow screens the icon stands for the home crumb once there is a trail. */}
                    <span className={cn(!isCurrent && 'max-sm:sr-only')}>{crumb.label}</span>
                  </Link>
                ) : isCurrent ? (
                  <span aria-current="page" className="truncate font-medium text-foreground">
                    {crumb.label}
                  </span>
                ) : (
                  <Link
                    href={crumb.href}
                    className="truncate rounded-sm transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  >
                    {crumb.label}
                  </Link>
                )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
