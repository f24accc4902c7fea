import { Mail, TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import type { TMessagePreview } from '../../../../contract';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

/** A sentence saying why a message will not go out, and where that is fixed (no mail server, a switch off…). */
export function DeliveryWarning({ message, className }: { message: string; className?: string }) {
  return (
    <p
      className={cn(
        'flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
        className,
      )}
      data-testid="delivery-warning"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 break-words">{message}</span>
    </p>
  );
}

/**
 * One message as its recipient gets it: whom it is shown for ('Preview for the family of Ada Martínez'), the
 * address, the subject and the text with every placeholder filled in, and, when it would not go out, why.
 * `placeholder` shows while there is nothing to preview yet (the form is incomplete, nobody would get it).
 */
export function MessagePreview({
  preview,
  loading = false,
  error,
  placeholder,
  className,
}: {
  preview: TMessagePreview | null | undefined;
  loading?: boolean;
  /** Why the preview could not be read. */
  error?: string | null;
  placeholder?: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  let content: ReactNode;
  if (error) content = <p className="text-sm break-words text-destructive-soft-foreground">{error}</p>;
  else if (preview) {
    content = (
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium break-words" data-testid="message-preview-audience">
          Preview for {preview.audience}
        </p>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm">
          <dt className="text-muted-foreground">To</dt>
          <dd className="break-all">{preview.to || '(no e-mail address on file)'}</dd>
          {preview.subject ? (
            <>
              <dt className="text-muted-foreground">Subject</dt>
              <dd className="break-words" data-testid="message-preview-subject">
                {preview.subject}
              </dd>
            </>
          ) : null}
        </dl>
        <div
          className="max-h-72 overflow-y-auto rounded-md border bg-background px-3 py-2 text-sm break-words whitespace-pre-wrap"
          data-testid="message-preview-body"
          tabIndex={0}
          role="region"
          aria-label="Preview text"
        >
          {preview.body}
        </div>
        {preview.deliveryProblem ? <DeliveryWarning message={preview.deliveryProblem.message} /> : null}
      </div>
    );
  } else if (loading) {
    content = (
      <div className="flex flex-col gap-2" role="status" aria-label="Loading the preview">
        <Skeleton className="h-4 w-56 max-w-full" />
        <Skeleton className="h-4 w-72 max-w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  } else content = <p className="text-sm text-muted-foreground">{placeholder ?? 'Nothing to preview yet.'}</p>;

  return (
    <section className={cn('flex flex-col gap-2 rounded-md border bg-muted/40 p-3', className)} aria-labelledby={headingId} data-testid="message-preview">
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <Mail className="size-4 text-muted-foreground" aria-hidden="true" />
        Preview before sending
      </h3>
      {content}
    </section>
  );
}
