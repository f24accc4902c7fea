import { CircleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { BrandMark } from './brand-mark';

/**
 * The frame of every page shown without the app around it (sign-in, an invitation link, the two-step setup an
 * admin must finish first): the logo, one card with an icon, the page's h1 and a line under it.
 */
export function GateLayout({
  icon: Icon,
  title,
  description,
  wide = false,
  footer = 'Authorised league staff only.',
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  /** A wider card, for the two-step setup's QR code and recovery codes. */
  wide?: boolean;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-svh items-center justify-center bg-gradient-to-b from-muted to-background px-4 py-10">
      <div className={cn('flex w-full flex-col items-center gap-6', wide ? 'max-w-lg' : 'max-w-sm')}>
        <BrandMark />
        <Card className="w-full gap-5">
          <CardHeader className="items-center text-center">
            <span className="mb-1 flex size-10 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
        {footer ? <p className="text-center text-xs text-muted-foreground">{footer}</p> : null}
      </div>
    </main>
  );
}

/** The message of a refused attempt, read out as soon as it appears. */
export function GateError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="flex items-start gap-2 rounded-md bg-destructive-soft px-3 py-2 text-sm text-destructive-soft-foreground">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </p>
  );
}

