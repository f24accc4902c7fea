import type { UseQueryResult } from '@tanstack/react-query';
import { CheckCircle2, CircleDashed } from 'lucide-react';
import type { TDocument, TDocumentListItem, TDocumentReviewContext } from '../../../../contract';
import { LoadError } from '@/components/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useSeasons } from '@/lib/seasons-query';
import { RegistrationLine, ReviewFacts } from './review-facts';

/** The registration the document is checked against: the player, the date of birth (verified or not), the division, season and guardian. */
function Registration({ item, record, context }: { item: TDocumentListItem; record: TDocument | undefined; context: TDocumentReviewContext }) {
  const seasons = useSeasons();
  const season = seasons.data?.seasons.find((entry) => entry.id === context.seasonId);
  const verified = context.player.birthDateVerifiedAt !== null;
  const guardian = [record?.guardianEmail, record?.guardianPhone].filter((value): value is string => Boolean(value)).join(' · ');
  return (
    <section aria-labelledby="review-registration-title" className="flex flex-col gap-2">
      <h3 id="review-registration-title" className="text-sm font-semibold">
        Registration
      </h3>
      <dl className="grid gap-1 text-sm" data-testid="review-registration">
        <RegistrationLine label="Player">
          {context.player.firstName} {context.player.lastName}
        </RegistrationLine>
        <RegistrationLine label="Date of birth">
          <span className="inline-flex flex-wrap items-center gap-x-2">
            {formatDate(context.player.birthDate)}
            <span className="inline-flex items-center gap-1 text-muted-foreground">
              {verified ? (
                <CheckCircle2 className="size-3.5 text-green-700 dark:text-green-400" aria-hidden="true" />
              ) : (
                <CircleDashed className="size-3.5" aria-hidden="true" />
              )}
              {verified ? 'verified' : 'not verified yet'}
            </span>
          </span>
        </RegistrationLine>
        <RegistrationLine label="Division">{item.division ?? 'Not given'}</RegistrationLine>
        <RegistrationLine label="Season">{season?.name ?? context.seasonId}</RegistrationLine>
        <RegistrationLine label="Guardian">{guardian || 'No contact on file'}</RegistrationLine>
      </dl>
    </section>
  );
}

/** What the document says beside the registration (what matters first), then the rest of the registration; each read on its own, each with its own loading and error. */
export function ReviewDocumentDetails({
  item,
  record,
  context,
}: {
  item: TDocumentListItem;
  record: UseQueryResult<TDocument>;
  context: UseQueryResult<TDocumentReviewContext>;
}) {
  if (context.isError) {
    return <LoadError title="Unable to load the registration" detail={getErrorMessage(context.error)} onRetry={() => void context.refetch()} retrying={context.isFetching} />;
  }
  if (!context.data) {
    return (
      <div aria-busy="true" className="flex flex-col gap-2">
        <span className="sr-only">Loading the registration</span>
        <Skeleton className="h-5 w-32" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      {record.isError ? (
        <LoadError title="Unable to load what the document says" detail={getErrorMessage(record.error)} onRetry={() => void record.refetch()} retrying={record.isFetching} />
      ) : record.data ? (
        <ReviewFacts declared={item.docType} record={record.data} context={context.data} />
      ) : (
        <Skeleton className="h-32 w-full" />
      )}
      <Registration item={item} record={record.data} context={context.data} />
    </div>
  );
}
