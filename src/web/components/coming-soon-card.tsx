import { Hammer, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';

interface ComingSoonCardProps {
  icon?: LucideIcon;
  title?: string;
  children?: ReactNode;
  className?: string;
}

/** Stands in for a screen whose content ships in a later release. */
export function ComingSoonCard({
  icon: Icon = Hammer,
  title = 'Coming in a later release',
  children,
  className,
}: ComingSoonCardProps) {
  return (
    <Card className={cn('border-dashed', className)} data-testid="coming-soon">
      <CardContent className="flex flex-col items-center gap-3 py-8 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <h2 className="text-base font-semibold">{title}</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          {children ?? 'This screen is being built. It will appear here in a later release of Clearbase.'}
        </p>
      </CardContent>
    </Card>
  );
}
