import { CalendarClock, LinkIcon, RotateCcw, WifiOff } from 'lucide-react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { TDocType, TFamilyPage, TFamilyUploadResult } from '../../../contract';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { FamilyPageError, useFamilyPage, useReplaceFamilyPage } from './api';
import { DocumentCard } from './document-card';
import { deadlineWording, documentsToSend, localDay, pageSummary, pageTitle } from './family-states';
import { familyTokenFromHash } from './family-token';
import { DEAD_LINK_WORDS, deadLinkBody, FAILED_MESSAGE, type DeadLinkReason } from './upload-outcome';

/** The frame of the family page: the brand, then the page's content, in a phone-wide column; nothing of the league's app. */
function FamilyFrame({ brand, children }: { brand: ReactNode; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-svh w-full max-w-xl flex-col gap-5 px-4 pt-5 pb-10 sm:pt-10">
      <div>{brand}</div>
      {children}
    </main>
  );
}

export type DeadLinkState = { reason: DeadLinkReason; message: string | null };

function DeadLink({ brand, reason, message = null }: { brand: ReactNode; reason: DeadLinkReason; message?: string | null }) {
  const words = DEAD_LINK_WORDS[reason];
  useDocumentTitle(words.title);
  return (
    <FamilyFrame brand={brand}>
      <section className="flex flex-col items-center gap-3 rounded-xl border bg-card px-5 py-10 text-center shadow-sm" data-testid="family-dead-link">
        <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
          <LinkIcon className="size-6" aria-hidden="true" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">{words.title}</h1>
        <p className="text-base text-muted-foreground">{deadLinkBody(reason, message)}</p>
      </section>
    </FamilyFrame>
  );
}

function Loading({ brand }: { brand: ReactNode }) {
  useDocumentTitle('Your documents');
  return (
    <FamilyFrame brand={brand}>
      <div role="status" aria-label="Loading your documents" className="flex flex-col gap-4">
        <Skeleton className="h-8 w-4/5" />
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-40 w-full rounded-xl" />
        <Skeleton className="h-40 w-full rounded-xl" />
      </div>
    </FamilyFrame>
  );
}

function Unreachable({ brand, message, retrying, onRetry }: { brand: ReactNode; message: string; retrying: boolean; onRetry: () => void }) {
  useDocumentTitle('Your documents');
  return (
    <FamilyFrame brand={brand}>
      <section role="alert" className="flex flex-col items-center gap-4 rounded-xl border bg-card px-5 py-10 text-center shadow-sm">
        <WifiOff className="size-8 text-muted-foreground" aria-hidden="true" />
        <h1 className="text-xl font-semibold tracking-tight">We could not open your documents</h1>
        <p className="text-base text-muted-foreground">{message}</p>
        <Button className="h-12 w-full text-base" disabled={retrying} onClick={onRetry}>
          <RotateCcw aria-hidden="true" />
          Try again
        </Button>
      </section>
    </FamilyFrame>
  );
}

const dayOfInstant = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A calendar date as written, or an instant's day in the reader's time zone: 'Apr 15, 2026'. */
function dayOf(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dayOfInstant.format(date);
}

function Documents({
  brand,
  token,
  page,
  onDeadLink,
}: {
  brand: ReactNode;
  token: string;
  page: TFamilyPage;
  onDeadLink: (link: DeadLinkState) => void;
}) {
  const title = pageTitle(page.playerFirstName, page.season.name);
  useDocumentTitle(title);
  const deadline = deadlineWording(page.season.registrationDeadline, localDay(new Date()), documentsToSend(page.documents));
  const replacePage = useReplaceFamilyPage(token);
  const [received, setReceived] = useState<Partial<Record<TDocType, string>>>({});
  const onSent = useCallback(
    (result: TFamilyUploadResult) => {
      setReceived((current) => ({ ...current, [result.docType]: result.message }));
      replacePage(result.page);
    },
    [replacePage],
  );
  return (
    <FamilyFrame brand={brand}>
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl leading-tight font-semibold tracking-tight" data-testid="family-title">
          {title}
        </h1>
        <p className="flex items-center gap-2 text-base">
          <CalendarClock className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            {deadline.before}
            <strong data-testid="family-deadline">{dayOf(page.season.registrationDeadline)}</strong>
            {deadline.after}
          </span>
        </p>
        <p className="text-sm text-muted-foreground" data-testid="family-summary">
          {pageSummary(page.documents)}
        </p>
      </header>
      <ul className="flex flex-col gap-4" aria-label="Documents">
        {page.documents.map((document) => (
          <li key={document.type}>
            <DocumentCard
              token={token}
              document={document}
              receivedMessage={received[document.type] ?? null}
              onSent={onSent}
              onDeadLink={onDeadLink}
            />
          </li>
        ))}
      </ul>
      <footer className="text-sm text-muted-foreground">
        <p>
          This link is for your family only and works until {dayOf(page.expiresAt)}. Only the league’s volunteers see what you send.
        </p>
      </footer>
    </FamilyFrame>
  );
}

function FamilyPageFor({ brand, token }: { brand: ReactNode; token: string }) {
  const query = useFamilyPage(token);
  const [deadLink, setDeadLink] = useState<DeadLinkState | null>(null);
  if (deadLink) return <DeadLink brand={brand} reason={deadLink.reason} message={deadLink.message} />;
  if (query.data) return <Documents brand={brand} token={token} page={query.data} onDeadLink={setDeadLink} />;
  if (query.error) {
    const failure = query.error instanceof FamilyPageError ? query.error.failure : null;
    if (failure?.kind === 'dead-link') return <DeadLink brand={brand} reason={failure.reason} message={failure.message} />;
    const message = failure && 'message' in failure ? failure.message : FAILED_MESSAGE;
    return <Unreachable brand={brand} message={message} retrying={query.isFetching} onRetry={() => void query.refetch()} />;
  }
  return <Loading brand={brand} />;
}

/** The address's #fragment, read again when it changes (a second link opened in the same tab). */
function useHash(): string {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const read = () => setHash(window.location.hash);
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  return hash;
}

/**
 * The page a family's upload link opens (`/family#token=…`), without sign-in: the player's documents for the
 * season, each with its state, and a way to photograph or choose what is still needed. `brand` is the league's
 * mark, handed in by the app.
 */
export function FamilyPage({ brand }: { brand: ReactNode }) {
  const link = familyTokenFromHash(useHash());
  if (link.kind !== 'token') return <DeadLink brand={brand} reason="not_valid" />;
  // A new token is a new page: nothing of the last one's drafts carries over.
  return <FamilyPageFor key={link.token} brand={brand} token={link.token} />;
}
