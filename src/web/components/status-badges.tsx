import { CalendarX, CheckCircle2, CircleMinus, CircleSlash, Clock, Loader2, ShieldAlert, XCircle, CircleDashed } from 'lucide-react';
import type { TDocumentStatus, TPlayerDocStatus, TUserRole, TUserStatus } from '../../contract';
import { cn } from '@/lib/utils';
import { documentStatusLabel, PLAYER_DOC_STATUS_LABELS } from './status-tones';

/** Document status colours: verified green, pending orange, processing blue, rejected red, else grey. */
const DOCUMENT_CLASS: Record<TDocumentStatus, string> = {
  verified: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  pending: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300',
  processing: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  rejected: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};
const MISSING_CLASS = 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300';
/** Still processing, but its virus scan keeps failing: amber, with a shield icon, so colour is not the only cue. */
const SCAN_FAILED_CLASS = 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200';

const badge = 'inline-flex w-fit items-center gap-1 rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap [&>svg]:size-3';

/** `scanFailed`: a processing document whose virus scan keeps failing reads 'Scan failed, will retry'. */
export function DocumentStatusBadge({ status, scanFailed = false, className }: { status: TDocumentStatus | null; scanFailed?: boolean; className?: string }) {
  if (status === 'processing' && scanFailed) {
    // Longer than the other labels: in a narrow column it breaks after the comma, and only there.
    const [first = '', rest = ''] = documentStatusLabel(status, scanFailed).split(/(?<=,) /);
    return (
      <span className={cn(badge, SCAN_FAILED_CLASS, className)} data-status="scan_failed">
        <ShieldAlert aria-hidden="true" />
        <span className="whitespace-normal">
          <span className="whitespace-nowrap">{first}</span> <span className="whitespace-nowrap">{rest}</span>
        </span>
      </span>
    );
  }
  if (status === null) {
    return (
      <span className={cn(badge, MISSING_CLASS, className)} data-status="missing">
        Missing
      </span>
    );
  }
  return (
    <span className={cn(badge, DOCUMENT_CLASS[status], className)} data-status={status}>
      {documentStatusLabel(status)}
    </span>
  );
}

/** An approval that lapsed: a warning (amber) with a calendar icon, for the family has to send a new one. */
const EXPIRED_CLASS = SCAN_FAILED_CLASS;
/** A type the season does not ask for: muted, a dash icon, plainly out of the way. */
const NOT_REQUIRED_CLASS = 'bg-transparent text-muted-foreground ring-1 ring-inset ring-border';

const PLAYER_DOC_CLASS: Record<TPlayerDocStatus, string> = {
  complete: DOCUMENT_CLASS.verified,
  pending: DOCUMENT_CLASS.pending,
  processing: DOCUMENT_CLASS.processing,
  missing: MISSING_CLASS,
  expired: EXPIRED_CLASS,
  not_required: NOT_REQUIRED_CLASS,
};
const PLAYER_DOC_ICON = {
  complete: CheckCircle2,
  pending: Clock,
  processing: Loader2,
  missing: XCircle,
  expired: CalendarX,
  not_required: CircleMinus,
} as const satisfies Record<TPlayerDocStatus, unknown>;

/** One player's status for one document type, with an icon so colour is not the only cue. */
export function PlayerDocStatusBadge({ status, className }: { status: TPlayerDocStatus; className?: string }) {
  const Icon = PLAYER_DOC_ICON[status] ?? CircleDashed;
  return (
    <span className={cn(badge, PLAYER_DOC_CLASS[status], className)} data-status={status}>
      <Icon aria-hidden="true" />
      {PLAYER_DOC_STATUS_LABELS[status]}
    </span>
  );
}

/** Role colours: admin red, moderator blue, viewer gray; the label says the role, so colour is not the only cue. */
const USER_ROLE_CLASS: Record<TUserRole, string> = {
  admin: DOCUMENT_CLASS.rejected,
  moderator: DOCUMENT_CLASS.processing,
  viewer: MISSING_CLASS,
};

export function UserRoleBadge({ role, label, className }: { role: TUserRole; label: string; className?: string }) {
  return (
    <span className={cn(badge, USER_ROLE_CLASS[role], className)} data-role={role}>
      {label}
    </span>
  );
}

/** User status colours: active green, pending orange, inactive gray, each with its icon. */
const USER_STATUS_CLASS: Record<TUserStatus, string> = {
  active: DOCUMENT_CLASS.verified,
  pending: DOCUMENT_CLASS.pending,
  inactive: MISSING_CLASS,
};
const USER_STATUS_ICON = { active: CheckCircle2, pending: Clock, inactive: CircleSlash } as const;

export function UserStatusBadge({ status, label, className }: { status: TUserStatus; label: string; className?: string }) {
  const Icon = USER_STATUS_ICON[status];
  return (
    <span className={cn(badge, USER_STATUS_CLASS[status], className)} data-status={status}>
      <Icon aria-hidden="true" />
      {label}
    </span>
  );
}
