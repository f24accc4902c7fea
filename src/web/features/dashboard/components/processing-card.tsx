import { ArrowRight, Upload } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { PROCESSING_CARD_LIMIT, useProcessingUploads } from '../api';
import { CARD_LINK_CLASS, CLICKABLE_CARD_CLASS, clickedControl } from './clickable-card';
import { UploadRow } from './upload-row';
import { ListSkeleton } from '@/components/list-skeleton';
import { cn } from '@/lib/utils';

/**
 * Real-time Processing: the 5 latest uploads, Active when there are any (its dot pulsing while one is still
 * being processed), Idle otherwise. The whole
 * card opens the Documents screen on a click; its 'View all' link is the way there for keyboards and readers.
 */
export function ProcessingCard() {
  const uploads = useProcessingUploads();
  const [, navigate] = useLocation();
  const items = uploads.data?.uploads ?? [];
  const active = items.length > 0;
  // The dot pulses only while a listed upload is still in the pipeline: a pulse that never stops repaints the
  // screen many times a second, which a phone pays for in battery.
  const working = items.some((upload) => upload.status === 'processing');

  return (
    <Card
      data-testid="processing-card"
      className={CLICKABLE_CARD_CLASS}
      onClick={(event) => {
        if (!clickedControl(event)) navigate('/documents');
      }}
    >
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <IconCardTitle icon={Upload}>Real-time Processing</IconCardTitle>
          <CardDescription>The {PROCESSING_CARD_LIMIT} latest uploads</CardDescription>
        </div>
        {uploads.data ? (
          <Badge variant={active ? 'success' : 'secondary'} data-testid="processing-state">
            {active ? (
              <span className={cn('size-1.5 rounded-full bg-current', working && 'motion-safe:animate-pulse')} aria-hidden="true" />
            ) : null}
            {active ? 'Active' : 'Idle'}
          </Badge>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!uploads.data && uploads.isError ? (
          <LoadError title="Unable to load recent uploads" onRetry={() => void uploads.refetch()} retrying={uploads.isFetching} />
        ) : !uploads.data ? (
          <ListSkeleton label="Loading recent uploads" rows={PROCESSING_CARD_LIMIT} leading="size-8 rounded-md" lines={['h-3.5 w-40 max-w-full', 'h-3 w-28']} trailing="h-5 w-16" />
        ) : active ? (
          <ul className="flex flex-col divide-y" aria-label="Latest uploads">
            {items.map((upload) => (
              <UploadRow key={upload.id} upload={upload} />
            ))}
          </ul>
        ) : (
          <p className="py-6 text-center text-sm text-muted-foreground">No recent uploads</p>
        )}
        <Link
          href="/documents"
          className={CARD_LINK_CLASS}
        >
          View all documents
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
      </CardContent>
    </Card>
  );
}
