import { ShieldCheck } from 'lucide-react';
import { cn } from '@/lib/utils';

/** The Clearbase logo: a shield in a blue tile, with the wordmark unless `iconOnly`. */
export function BrandMark({ className, iconOnly = false }: { className?: string; iconOnly?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <ShieldCheck className="size-5" aria-hidden="true" />
      </span>
      <span className={cn('text-lg font-semibold tracking-tight', iconOnly && 'sr-only')}>Clearbase</span>
    </span>
  );
}
