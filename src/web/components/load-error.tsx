import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';

interface LoadErrorProps {
  /** What could not be read, as a sentence: 'Unable to load users'. */
  title: ReactNode;
  /** Why, usually the server's message: a line of its own under the title (in the banner, after it). */
  detail?: ReactNode;
  /** Reads again; without it there is no Try again button, and no frame: the title stands alone. */
  onRetry?: () => void;
  /** A read is under way: the button waits and, unless `iconSpins` is false, its icon turns. */
  retrying?: boolean;
  iconSpins?: boolean;
  /**
   * 'plain': the words and the button in a column, where the failed content would be; 'card': the same as a
   * card of its own; 'banner': a tinted box that is the alert itself, with a button without an icon.
   */
  variant?: 'plain' | 'card' | 'banner';
  /** Classes of the outer box (the card's, for 'card'). */
  className?: string;
  /** For 'card': classes of the card's content, which holds the words and the button. */
  contentClassName?: string;
  testId?: string;
}

const COLUMN = 'flex flex-col items-start gap-3';

/** The block a screen shows where something could not be read: what failed, why, and Try again. */
export function LoadError({
  title,
  detail,
  onRetry,
  retrying,
  iconSpins = true,
  variant = 'plain',
  className,
  contentClassName,
  testId,
}: LoadErrorProps) {
  if (variant === 'banner') {
    return (
      <div
        role="alert"
        className={cn(`${COLUMN} rounded-md bg-destructive-soft p-4 text-sm text-destructive-soft-foreground`, className)}
        data-testid={testId}
      >
        <p>
          {title} {detail}
        </p>
        {onRetry ? (
          <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
            Try again
          </Button>
        ) : null}
      </div>
    );
  }

  const message =
    detail === undefined ? (
      <p role="alert" className="text-sm text-destructive-soft-foreground">
        {title}
      </p>
    ) : (
      <div role="alert" className="flex flex-col gap-1">
        <p className="text-sm font-medium text-destructive-soft-foreground">{title}</p>
        <p className="text-sm break-words text-muted-foreground">{detail}</p>
      </div>
    );
  if (!onRetry) return message;

  const body = (
    <>
      {message}
      <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
        <RefreshCw className={retrying && iconSpins ? 'animate-spin' : undefined} aria-hidden="true" />
        Try again
      </Button>
    </>
  );
  if (variant === 'card') {
    return (
      <Card className={className} data-testid={testId}>
        <CardContent className={cn(COLUMN, contentClassName)}>{body}</CardContent>
      </Card>
    );
  }
  return (
    <div className={cn(COLUMN, className)} data-testid={testId}>
      {body}
    </div>
  );
}
