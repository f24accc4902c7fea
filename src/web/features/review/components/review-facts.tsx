import { AlertTriangle, CheckCircle2, CircleHelp, Info, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { DOC_TYPE_LABELS, type TDocType, type TDocument, type TDocumentReviewContext } from '../../../../contract';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { compareDates, compareNames, compareTypes, readingWords, withCheck, type Comparison } from '../review-queue';

/** Matches, differs or not found: an icon and words, never colour alone. */
function ComparisonNote({ comparison, differsText = 'Differs' }: { comparison: Comparison; differsText?: string | undefined }) {
  if (comparison === 'differs') {
    return (
      <span className="inline-flex items-center gap-1 rounded-md bg-warning-soft px-1.5 py-0.5 text-xs font-semibold text-warning-soft-foreground" data-comparison="differs">
        <AlertTriangle className="size-3.5" aria-hidden="true" />
        {differsText}
      </span>
    );
  }
  if (comparison === 'close') {
    return (
      <span className="inline-flex items-center gap-1 text-xs font-medium text-foreground" data-comparison="close">
        <CircleHelp className="size-3.5" aria-hidden="true" />
        Nearly matches: look closely
      </span>
    );
  }
  if (comparison === 'same') {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" data-comparison="same">
        <CheckCircle2 className="size-3.5 text-green-700 dark:text-green-400" aria-hidden="true" />
        Matches
      </span>
    );
  }
  return null;
}

interface FactRow {
  label: string;
  registered: string;
  found: string | null;
  comparison: Comparison;
  /** The words of a difference, when not 'Differs'. */
  differsText?: string;
}

const typeLabel = (docType: TDocType | null): string => (docType ? DOC_TYPE_LABELS[docType] : 'Not known');

function factRows(declared: TDocType | null, record: TDocument, context: TDocumentReviewContext): FactRow[] {
  const { extracted, checks } = record;
  const playerName = `${context.player.firstName} ${context.player.lastName}`;
  const rows: FactRow[] = [
    {
      label: 'Type',
      registered: `${typeLabel(declared)} (as sent)`,
      found: extracted.docType ? DOC_TYPE_LABELS[extracted.docType] : null,
      comparison: withCheck(compareTypes(declared, extracted.docType), checks, 'type_mismatch'),
    },
    { label: 'Name', registered: playerName, found: extracted.fullName, comparison: withCheck(compareNames(playerName, extracted.fullName), checks, 'name_mismatch') },
    {
      label: 'Date of birth',
      registered: formatDate(context.player.birthDate),
      found: extracted.dateOfBirth ? formatDate(extracted.dateOfBirth) : null,
      comparison: withCheck(compareDates(context.player.birthDate, extracted.dateOfBirth), checks, 'dob_mismatch'),
    },
  ];
  if (extracted.documentDate || declared === 'medical' || declared === 'residency') {
    rows.push({
      label: declared === 'medical' ? 'Exam date' : 'Date on the document',
      registered: '—',
      found: extracted.documentDate ? formatDate(extracted.documentDate) : null,
      comparison: withCheck('unknown', checks, 'expired'),
      differsText: 'Too old',
    });
  }
  return rows;
}

/** The reading's state in words, with a spinner while it is still under way. */
function ReadingState({ record }: { record: TDocument }) {
  const state = record.reading.state;
  const icon =
    state === 'waiting' ? (
      <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
    ) : state === 'done' ? (
      <Info className="size-4" aria-hidden="true" />
    ) : (
      <CircleHelp className="size-4" aria-hidden="true" />
    );
  return (
    <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="review-reading" data-state={state}>
      <span className="mt-0.5 shrink-0">{icon}</span>
      {readingWords(record.reading, record.extracted.confidence)}
    </p>
  );
}

/**
 * What the document says beside what the registration says: type, name, date of birth and the document's
 * date, each marked Matches or Differs; then the checks the server found, as sentences.
 */
export function ReviewFacts({ declared, record, context }: { declared: TDocType | null; record: TDocument; context: TDocumentReviewContext }) {
  const done = record.reading.state === 'done';
  return (
    <section aria-labelledby="review-facts-title" className="flex flex-col gap-3" data-testid="review-facts">
      <h3 id="review-facts-title" className="text-sm font-semibold">
        What the document says
      </h3>
      <ReadingState record={record} />
      {done ? (
        <table className="w-full table-fixed text-sm">
          <caption className="sr-only">The registration beside what the document says</caption>
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th scope="col" className="w-[28%] py-1.5 pr-2 font-medium">
                <span className="sr-only">Field</span>
              </th>
              <th scope="col" className="py-1.5 pr-2 font-medium">
                Registration
              </th>
              <th scope="col" className="py-1.5 font-medium">
                Document
              </th>
            </tr>
          </thead>
          <tbody>
            {factRows(declared, record, context).map((row) => (
              <tr key={row.label} className={cn('border-b align-top last:border-0', row.comparison === 'differs' && 'bg-warning-soft/40')} data-testid="review-fact" data-field={row.label}>
                <th scope="row" className="py-2 pr-2 text-left font-medium">
                  {row.label}
                </th>
                <td className="py-2 pr-2 break-words">{row.registered}</td>
                <td className="py-2 break-words">
                  <div className="flex flex-col items-start gap-1">
                    <span className={row.found === null ? 'text-muted-foreground' : 'font-medium'}>{row.found ?? 'Not found'}</span>
                    <ComparisonNote comparison={row.found === null && row.comparison !== 'differs' ? 'unknown' : row.comparison} differsText={row.differsText} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {record.checks.length > 0 ? (
        <div className="flex flex-col gap-1.5">
          <h4 className="text-sm font-semibold">Look twice</h4>
          <ul className="flex flex-col gap-1.5" data-testid="review-checks">
            {record.checks.map((check) => (
              <li key={`${check.kind}:${check.message}`} className="flex items-start gap-2 text-sm" data-kind={check.kind}>
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
                {check.message}
              </li>
            ))}
          </ul>
        </div>
      ) : done ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CheckCircle2 className="size-4 text-green-700 dark:text-green-400" aria-hidden="true" />
          Nothing to look at twice.
        </p>
      ) : null}
    </section>
  );
}

/** One line of the registration: a label and its value. */
export function RegistrationLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-1.5">
      <dt className="shrink-0 text-muted-foreground">{label}:</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
