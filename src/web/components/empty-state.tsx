import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';

interface EmptyStateProps {
  icon: LucideIcon;
  /** The icon's size class. */
  iconSize?: string;
  /** What is missing: 'No users found'. */
  title: ReactNode;
  /** Why, or what to do about it. */
  description: ReactNode;
  /** Extra classes of the description, e.g. a width limit. */
  descriptionClassName?: string;
  /** 'plain': centred where the list would be; 'card': a card of its own. */
  variant?: 'plain' | 'card';
  /** Classes of the outer box (the card's, for 'card'), e.g. its padding. */
  className?: string;
  testId?: string;
}

/** What a list or screen shows when there is nothing in it: an icon, a title and a line under it, centred. */
export function EmptyState({
  icon: Icon,
  iconSize = 'size-8',
  title,
  description,
  descriptionClassName,
  variant = 'plain',
  className,
  testId,
}: EmptyStateProps) {
  const body = (
    <>
      <Icon className={`${iconSize} text-muted-foreground`} aria-hidden="true" />
      <p className="font-medium">{title}</p>
      <p className={cn(descriptionClassName, 'text-sm text-muted-foreground')}>{description}</p>
    </>
  );
  if (variant === 'card') {
    return (
      <Card className={className} data-testid={testId}>
        <CardContent className="flex flex-col items-center gap-2 text-center">{body}</CardContent>
      </Card>
    );
  }
  return (
    <div className={cn('flex flex-col items-center gap-2', className, 'text-center')} data-testid={testId}>
      {body}
    </div>
  );
}
